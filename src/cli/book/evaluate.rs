//! `othbook book evaluate`: searches the leaves of a book's positions with worker threads,
//! checkpointing to the output, then negamaxes the values.

use super::output;
use crate::cli::common::bad;
use crate::cli::interrupt::{self, Interrupted};
use crate::cli::output_path::{claim, Claimed, Output};
use anyhow::{Context, Result};
use dashmap::DashMap;
use othbook::book::key::Key;
use othbook::book::{BookData, Leaf};
use othbook::engine::Selectivity;
use othbook::learn::{
    apply_leaves, book_digest, check_plan, default_hash_mb, plan, read_parts, search_leaves,
    write_parts, Again, LeafSettings, Parts, SearchRun, Shard,
};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Arguments of `othbook book evaluate`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Each leaf is searched on one thread from a clear transposition table, \
so the values do not depend on the thread count or order: the same book and options give the \
same bytes. Ctrl-C (or SIGTERM) saves the leaves found so far and exits with code 130; the \
output is also saved every --checkpoint minutes. Run the same command again to continue (after \
--refresh: the same command without --refresh, since the leaves not searched again yet are saved \
as missing).\n\n\
A book's leaves are all searched with one setting, which its header records (`othbook info`): \
evaluating a book that has leaves with other settings needs --update (only the leaves the new \
settings search otherwise: raising --exact-from re-solves only the leaves it newly covers) or \
--refresh (every leaf), without --plies.\n\n\
Examples:\n  othbook book evaluate my.book --depth 12 --exact-from 18\n  \
othbook book evaluate my.book --depth 18 --selectivity 73 --refresh -o deep.book\n  \
othbook book evaluate deep.book --depth 18 --selectivity 73 --exact-from 24 --update\n  \
othbook book evaluate my.book --shard 0/3 -o part.0   (then: othbook book apply my.book part.* -o out.book)"
)]
pub struct Args {
    /// The book.
    book: PathBuf,
    /// Write the evaluated book here (default: replace BOOK); with --shard, the parts file.
    /// A file, not `-`. The output is locked
    /// while the command runs: a second othbook writing it stops at once (exit code 75).
    #[arg(short, long)]
    output: Option<Output>,
    /// Leaf search depth in plies.
    #[arg(long, default_value_t = 12)]
    depth: u32,
    /// Solve leaves exactly at this many empties or fewer (0: never).
    #[arg(long, default_value_t = 18)]
    exact_from: u32,
    /// Multi-ProbCut's confidence in the midgame leaf searches: 73, 87, 95, 98, 99, or 100
    /// (full width, no ProbCut; also `exact`). Lower is faster and less sure. Solved leaves
    /// (--exact-from) are exact whatever it is.
    #[arg(long, default_value = "100", value_name = "LEVEL")]
    selectivity: Selectivity,
    /// Only positions at most this many plies from the start.
    #[arg(long)]
    plies: Option<u8>,
    /// Worker threads, each searching one leaf (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Search every leaf again, not only the missing ones.
    #[arg(long)]
    refresh: bool,
    /// Search again the leaves these settings search otherwise than the book's header says
    /// its leaves were (raising --exact-from: only the leaves it newly solves), and the
    /// missing ones.
    #[arg(long, conflicts_with = "refresh")]
    update: bool,
    /// Search only shard I of N (I from 0): positions chosen by a stable hash of their key.
    /// Needs -o: the results go to a parts file for `book apply`.
    #[arg(long)]
    shard: Option<Shard>,
    /// Transposition table per worker, in MiB, cleared before each leaf (default: 1 up to
    /// depth 6, 4 up to 9, 16 beyond).
    #[arg(long)]
    hash: Option<usize>,
    /// Minutes between checkpoints.
    #[arg(long, default_value_t = 5.0)]
    checkpoint: f64,
}

/// Where the results go.
enum Target {
    Book(Claimed),
    Parts(Claimed, Shard),
}

/// Where the leaves go: the book (in place or `-o`), or with `--shard` a parts file.
fn target_of(args: &Args) -> Result<Target> {
    Ok(match (args.shard, &args.output) {
        (Some(_), None) => {
            return Err(bad(
                "--shard needs -o PART: the file for this shard's leaves",
            ))
        }
        (Some(s), Some(o)) => {
            let o = o.require_file(
                "-o",
                "the parts file is saved at checkpoints and read back: it must be a file",
            )?;
            crate::cli::common::distinct_files(std::slice::from_ref(&args.book), &[o])?;
            Target::Parts(claim(o)?, s)
        }
        (None, o) => Target::Book(output::target(&args.book, o.as_ref())?),
    })
}

/// What was written: the book's summary, or the parts file's shard and leaf count.
fn report(
    out: &mut impl Write,
    target: &Target,
    data: &BookData,
    results: &DashMap<Key, Leaf>,
    settings: &LeafSettings,
) -> Result<()> {
    if let Target::Book(path) = target {
        let mut final_data = data.clone();
        let report = apply_leaves(&mut final_data, results_of(results), settings);
        output::summary(out, path.path(), &final_data, &report)?;
    } else if let Target::Parts(path, s) = target {
        writeln!(
            out,
            "{}: shard {s}, {} leaves",
            path.path().display(),
            results.len()
        )?;
    }
    Ok(())
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let settings = LeafSettings::new(
        args.depth,
        args.exact_from,
        args.hash.unwrap_or(default_hash_mb(args.depth)),
    )
    .map_err(|e| bad(e.to_string()))?
    .with_selectivity(args.selectivity);
    let threads = crate::cli::common::threads_arg(args.threads)?;
    let checkpoint_every = output::checkpoint_every(args.checkpoint)?;
    let target = target_of(&args)?;
    let mut data = output::read(&args.book)?;
    let digest = book_digest(&data);
    let shard = args.shard.unwrap_or(Shard::ALL);
    let again = again_of(&args, &data, &settings)?;
    let the_plan = plan(&mut data, args.plies, again, shard);
    check_plan(&data, &the_plan.graph, args.plies, again, &settings)
        .map_err(|e| bad(format!("{}: {e}", args.book.display())))?;
    if again != Again::Never {
        // Saved as missing until searched again: a checkpoint then holds only leaves of
        // these settings, so a rerun (without --refresh) continues without mixing them.
        let index = data.key_index();
        for job in &the_plan.jobs {
            data.positions[index[&job.key]].eval.leaf = Leaf::Missing;
        }
    }
    let results: DashMap<Key, Leaf> = DashMap::new();
    let in_place = args.output.is_none();
    let resumed = resume(
        &target,
        digest,
        &settings,
        &results,
        in_place || args.refresh,
    )?;
    let jobs = &the_plan.jobs;
    let todo = jobs
        .iter()
        .filter(|j| !results.contains_key(&j.key))
        .count();
    eprintln!(
        "{} leaves to search ({} positions{}{}), {}, {} thread{}",
        todo,
        data.positions.len(),
        match shard {
            Shard::ALL => String::new(),
            s => format!(", shard {s}"),
        },
        if resumed > 0 {
            format!(", {resumed} found by an earlier run")
        } else {
            String::new()
        },
        settings.info(),
        threads.used(),
        if threads.used() == 1 { "" } else { "s" },
    );
    let bar = progress(jobs.len() as u64);
    bar.set_position((jobs.len() - todo) as u64);
    bar.reset_eta();
    let tick = || bar.inc(1);
    let stop = interrupt::install();
    let run = SearchRun {
        settings,
        threads,
        stop,
        tick: &tick,
        checkpoint_every,
    };
    let start = Instant::now();
    let mut save = |r: &DashMap<Key, Leaf>| save(&target, &data, digest, &settings, r);
    let done = search_leaves::<anyhow::Error>(jobs, &run, &results, &mut save)?;
    bar.finish_and_clear();
    save(&results)?;
    let searched = results.len() - resumed;
    let secs = start.elapsed().as_secs_f64();
    writeln!(
        out,
        "{searched} leaves searched in {secs:.1} s ({:.1} a second)",
        searched as f64 / secs.max(1e-9)
    )?;
    report(out, &target, &data, &results, &settings)?;
    if !done && stop.load(Ordering::Relaxed) {
        out.flush()?;
        let again = if args.refresh {
            "run the same command without --refresh to continue (with it, it starts over)"
        } else {
            "run the same command again to continue"
        };
        return Err(Interrupted(format!(
            "interrupted: {} of {} leaves saved; {again}",
            results.len(),
            jobs.len()
        ))
        .into());
    }
    Ok(())
}

/// Which known leaves the run searches again: every one with --refresh; with --update, those
/// the asked settings search otherwise than the book's header says its leaves were.
fn again_of(args: &Args, data: &BookData, settings: &LeafSettings) -> Result<Again> {
    if args.refresh {
        return Ok(Again::Always);
    }
    if !args.update {
        return Ok(Again::Never);
    }
    let Some(info) = &data.info.evaluation else {
        return Err(bad(format!(
            "{}: --update: the book records no evaluation to update; evaluate it without \
             --update",
            args.book.display()
        )));
    };
    let from = LeafSettings::from_info(info, settings.hash_mb())
        .map_err(|e| bad(format!("{}: {e}", args.book.display())))?;
    Ok(Again::Changed {
        from,
        to: *settings,
    })
}

/// The progress bar on stderr (hidden when stderr is not a terminal).
fn progress(total: u64) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} leaves, {rate}, {eta} left")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
            .with_key(
                "rate",
                |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.1}/s", s.per_sec());
                },
            ),
    );
    bar
}

/// The leaves, sorted by key so that what is written does not depend on the map's order.
fn results_of(results: &DashMap<Key, Leaf>) -> Vec<(Key, Leaf)> {
    let mut v: Vec<(Key, Leaf)> = results.iter().map(|e| (*e.key(), *e.value())).collect();
    v.sort_unstable_by_key(|(k, _)| *k);
    v
}

/// Writes the leaves found so far: into the book (with values negamaxed), or the parts file.
fn save(
    target: &Target,
    data: &BookData,
    digest: u64,
    settings: &LeafSettings,
    results: &DashMap<Key, Leaf>,
) -> Result<()> {
    match target {
        Target::Book(path) => {
            let path = path.path();
            let mut d = data.clone();
            apply_leaves(&mut d, results_of(results), settings);
            output::write(path, &d)?;
        }
        Target::Parts(path, shard) => {
            let path = path.path();
            let info = settings.info();
            let parts = Parts {
                digest,
                depth: info.depth,
                exact_from: info.exact_from,
                selectivity: info.selectivity,
                shard: *shard,
                leaves: results_of(results),
            };
            write_parts(path, &parts).with_context(|| format!("writing {}", path.display()))?;
        }
    }
    Ok(())
}

/// Takes the leaves an earlier, interrupted run saved into `target` (a parts file of the
/// same book, settings and shard; or a book with the same positions and settings), so the
/// run continues where it stopped. Returns how many.
/// `from_book_off`: do not take leaves from a book target (in place, or with --refresh).
fn resume(
    target: &Target,
    digest: u64,
    settings: &LeafSettings,
    results: &DashMap<Key, Leaf>,
    from_book_off: bool,
) -> Result<usize> {
    match target {
        Target::Parts(path, shard) => {
            let path = path.path();
            if !path.exists() {
                return Ok(0);
            }
            let parts = read_parts(path)?;
            if !parts.matches(digest, settings, *shard) {
                return Err(bad(format!(
                    "{} holds leaves of another book, shard or settings ({}, shard {}): remove \
                     it or choose another -o",
                    path.display(),
                    parts.info(),
                    parts.shard
                )));
            }
            for (k, l) in parts.leaves {
                results.insert(k, l);
            }
        }
        Target::Book(path) => {
            let path = path.path();
            // In place, the book's own leaves already count as done; a --refresh run cannot
            // tell refreshed leaves from old ones in a book, so it starts again.
            if !path.exists() || from_book_off {
                return Ok(0);
            }
            let Ok(earlier) = output::read(path) else {
                return Ok(0);
            };
            if book_digest(&earlier) == digest && earlier.info.evaluation == Some(settings.info()) {
                for p in earlier.positions.iter().filter(|p| p.eval.leaf.is_known()) {
                    results.insert(p.key, p.eval.leaf);
                }
            }
        }
    }
    Ok(results.len())
}
