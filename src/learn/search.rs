//! Searching leaves: which positions need one, the worker threads that search them, and
//! putting the results into the book.

use crate::board::{Bitboard, Move};
use crate::book::key::{Canonical, Key};
use crate::book::{board_of, BookData, Graph, Leaf, Node, RelinkReport, Score, ValueKind};
use crate::engine::{Engine, EngineError, EngineOptions, ScoreKind, ThreadCount};
use crate::learn::{LeafSettings, SettingsError, Shard};
use dashmap::DashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// One leaf to search: a position of the book and its moves that leave the book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeafJob {
    /// Canonical key.
    pub key: Key,
    /// Moves of the canonical board that leave the book (a pass alone when it must pass).
    pub out: Vec<Move>,
}

/// The leaves a run will search.
#[derive(Clone, Debug)]
pub struct Plan {
    /// In position-table order (which mixes depths evenly, so the rate is steady).
    pub jobs: Vec<LeafJob>,
    /// What relinking the book found before planning.
    pub relink: RelinkReport,
    /// The book's move graph.
    pub graph: Graph,
}

/// Which known leaves a run searches again (missing ones are always searched).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Again {
    /// None.
    Never,
    /// Those that `to` searches otherwise than `from`, the settings the book's leaves were
    /// searched with (raising --exact-from: only the leaves it newly solves).
    Changed {
        /// The book's settings.
        from: LeafSettings,
        /// The settings asked for.
        to: LeafSettings,
    },
    /// Every one.
    Always,
}

impl Again {
    /// Whether a known leaf of a position with `empties` empty squares is searched again.
    fn covers(&self, empties: u32) -> bool {
        match self {
            Again::Never => false,
            Again::Changed { from, to } => !from.searches_alike(to, empties),
            Again::Always => true,
        }
    }
}

/// Relinks `data` and lists the leaves to search: positions of `shard` at most `plies` plies
/// from the start (all when `None`) whose leaf is missing or, as `again` says, known but to be
/// searched again, among the positions that have moves out of the book.
pub fn plan(data: &mut BookData, plies: Option<u8>, again: Again, shard: Shard) -> Plan {
    let graph = Graph::of(data);
    let relink = data.relink_with(&graph);
    let jobs = data
        .positions
        .iter()
        .zip(&graph.nodes)
        .filter(|(p, node)| {
            planned(p.key, &p.eval.leaf, node, plies, again) && shard.contains(p.key)
        })
        .map(|(p, node)| LeafJob {
            key: p.key,
            out: node.out.clone(),
        })
        .collect();
    Plan {
        jobs,
        relink,
        graph,
    }
}

/// Whether [`plan`] searches the leaf of `p` (of any shard).
fn planned(key: Key, leaf: &Leaf, node: &Node, plies: Option<u8>, again: Again) -> bool {
    let empties = board_of(key).empty_count();
    !node.out.is_empty()
        && (!leaf.is_known() || again.covers(empties))
        && plies.is_none_or(|n| 60 - empties <= u32::from(n))
}

/// Checks that no leaf `data` holds from an evaluation with other settings than `settings`
/// would stay beside leaves searched with them (the header would then claim settings that
/// some leaves were not searched with). `replaced(i)`: whether the leaf of position `i` is
/// searched again. Leaves that need no search (in the book, game over) depend on no setting,
/// and a leaf both settings search alike (solved by both, say) may stay.
pub fn check_kept_leaves(
    data: &BookData,
    settings: &LeafSettings,
    replaced: impl Fn(usize) -> bool,
) -> Result<(), SettingsError> {
    let asked = settings.info();
    let Some(book) = data.info.evaluation.clone().filter(|b| *b != asked) else {
        return Ok(());
    };
    let from = LeafSettings::from_info(&book, settings.hash_mb())?;
    let kept = data
        .positions
        .iter()
        .enumerate()
        .filter(|(i, p)| {
            matches!(p.eval.leaf, Leaf::Move { .. } | Leaf::ScoreOnly(_))
                && !replaced(*i)
                && !from.searches_alike(settings, board_of(p.key).empty_count())
        })
        .count();
    if kept == 0 {
        return Ok(());
    }
    Err(SettingsError::Mixed { book, asked, kept })
}

/// [`check_kept_leaves`] for a run of [`plan`] with `plies` and `again` over every shard:
/// `graph` is the plan's.
pub fn check_plan(
    data: &BookData,
    graph: &Graph,
    plies: Option<u8>,
    again: Again,
    settings: &LeafSettings,
) -> Result<(), SettingsError> {
    check_kept_leaves(data, settings, |i| {
        let p = &data.positions[i];
        planned(p.key, &p.eval.leaf, &graph.nodes[i], plies, again)
    })
}

/// The leaves found so far, shared by the workers.
pub type Results = DashMap<Key, Leaf>;

/// What [`search_leaves`] calls to save the leaves found so far.
pub type Checkpoint<'a, E> = dyn FnMut(&Results) -> Result<(), E> + 'a;

/// How [`search_leaves`] runs.
pub struct SearchRun<'a> {
    /// How each leaf is searched.
    pub settings: LeafSettings,
    /// Worker threads, each searching one leaf at a time.
    pub threads: ThreadCount,
    /// Set (by a signal handler, say) to stop: searches under way are dropped, finished
    /// ones kept.
    pub stop: &'a AtomicBool,
    /// Called once per leaf finished (or found already done).
    pub tick: &'a (dyn Fn() + Sync),
    /// Time between checkpoints.
    pub checkpoint_every: Duration,
}

/// Searches every job whose key `results` does not hold yet, putting each leaf into
/// `results` (a map shared by the workers) as it is found; calls `checkpoint` with the map
/// every `checkpoint_every`. Returns `Ok(true)` when every job is done, `Ok(false)` when
/// stopped first.
pub fn search_leaves<E: From<EngineError>>(
    jobs: &[LeafJob],
    run: &SearchRun<'_>,
    results: &DashMap<Key, Leaf>,
    checkpoint: &mut Checkpoint<'_, E>,
) -> Result<bool, E> {
    let engines = (0..run.threads.used())
        .map(|_| {
            Engine::try_new(EngineOptions {
                threads: ThreadCount::ONE,
                hash_mb: run.settings.hash(),
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let next = AtomicUsize::new(0);
    let running = AtomicUsize::new(engines.len());
    let failure: Mutex<Option<EngineError>> = Mutex::new(None);
    let mut outcome = Ok(());
    std::thread::scope(|scope| {
        for mut engine in engines {
            let (next, running, failure) = (&next, &running, &failure);
            scope.spawn(move || {
                if let Err(e) = work(&mut engine, jobs, run, results, next) {
                    *failure.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                    run.stop.store(true, Ordering::Relaxed);
                }
                running.fetch_sub(1, Ordering::Release);
            });
        }
        let mut last = Instant::now();
        while running.load(Ordering::Acquire) > 0 {
            std::thread::sleep(Duration::from_millis(50));
            if last.elapsed() >= run.checkpoint_every && !run.stop.load(Ordering::Relaxed) {
                if let Err(e) = checkpoint(results) {
                    outcome = Err(e);
                    run.stop.store(true, Ordering::Relaxed);
                }
                last = Instant::now();
            }
        }
    });
    outcome?;
    if let Some(e) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e.into());
    }
    Ok(jobs.iter().all(|j| results.contains_key(&j.key)))
}

/// One worker: takes the next job until none is left or the run is stopped.
fn work(
    engine: &mut Engine,
    jobs: &[LeafJob],
    run: &SearchRun<'_>,
    results: &DashMap<Key, Leaf>,
    next: &AtomicUsize,
) -> Result<(), EngineError> {
    while !run.stop.load(Ordering::Relaxed) {
        let Some(job) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) else {
            break;
        };
        if !results.contains_key(&job.key) {
            match search_leaf(engine, job, &run.settings, run.stop)? {
                Some(leaf) => {
                    results.insert(job.key, leaf);
                }
                None => break,
            }
        }
        (run.tick)();
    }
    Ok(())
}

/// The leaf of one position: the best of its moves out of the book, searched from a clear
/// table. `None` when the run was stopped during the search.
pub fn search_leaf(
    engine: &mut Engine,
    job: &LeafJob,
    settings: &LeafSettings,
    stop: &AtomicBool,
) -> Result<Option<Leaf>, EngineError> {
    engine.clear();
    let board = board_of(job.key);
    let mut limits = settings.limits(board.empty_count());
    if board.has_moves() {
        let mask: Bitboard = job
            .out
            .iter()
            .filter_map(|m| match m {
                Move::Play(sq) => Some(*sq),
                Move::Pass => None,
            })
            .collect();
        limits = limits.only(mask);
    }
    let a = engine.analyze_stoppable(&board, &limits, stop, |_| {})?;
    if !a.complete {
        return Ok(None);
    }
    let kind = match a.kind {
        ScoreKind::Midgame => ValueKind::Midgame,
        ScoreKind::Exact => ValueKind::Exact,
        ScoreKind::Wld => ValueKind::Wld,
    };
    Ok(Some(Leaf::Move {
        code: Canonical::of(&board).code_of(a.best_move),
        score: Score {
            score: a.score.clamp(-6400, 6400) as i16,
            depth: a.depth.min(u32::from(u8::MAX)) as u8,
            kind,
        },
    }))
}

/// Puts searched leaves into the book (positions it does not hold are ignored), records the
/// settings in the header and negamaxes.
pub fn apply_leaves(
    data: &mut BookData,
    leaves: impl IntoIterator<Item = (Key, Leaf)>,
    settings: &LeafSettings,
) -> RelinkReport {
    data.info.evaluation = Some(settings.info());
    put_leaves(data, leaves)
}

/// Puts searched leaves into the book (positions it does not hold are ignored) and
/// negamaxes, leaving the header as it is: for leaves searched at other settings than the
/// book's (a few searched deeper).
pub fn put_leaves(
    data: &mut BookData,
    leaves: impl IntoIterator<Item = (Key, Leaf)>,
) -> RelinkReport {
    let index = data.key_index();
    for (key, leaf) in leaves {
        if let Some(&i) = index.get(&key) {
            data.positions[i].eval.leaf = leaf;
        }
    }
    data.relink()
}

/// Searches every missing leaf of `data` as `run` says, puts them in and negamaxes (the
/// header is left as it is). `save` gets the book as it would be if the run stopped there,
/// every `run.checkpoint_every`: the leaves not searched yet are still missing in it, so a
/// rerun that searches the missing leaves first ends where this run would have. Returns
/// whether every leaf was searched (false: stopped first) and how many were.
pub fn search_missing<E: From<EngineError>>(
    data: &mut BookData,
    run: &SearchRun<'_>,
    save: &mut dyn FnMut(&BookData) -> Result<(), E>,
) -> Result<(bool, usize), E> {
    let the_plan = plan(data, None, Again::Never, Shard::ALL);
    let results: Results = DashMap::new();
    let sorted = |r: &Results| {
        let mut leaves: Vec<(Key, Leaf)> = r.iter().map(|e| (*e.key(), *e.value())).collect();
        leaves.sort_unstable_by_key(|(k, _)| *k);
        leaves
    };
    let mut checkpoint = |r: &Results| -> Result<(), E> {
        let mut snapshot = data.clone();
        put_leaves(&mut snapshot, sorted(r));
        save(&snapshot)
    };
    let done = search_leaves::<E>(&the_plan.jobs, run, &results, &mut checkpoint)?;
    put_leaves(data, sorted(&results));
    Ok((done, results.len()))
}
