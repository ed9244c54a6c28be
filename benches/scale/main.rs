//! The scale benchmark: makes a large synthetic game collection reproducibly (cached), builds
//! a book from it with the release `othbook build` as a child process, and reports games/s,
//! peak memory, wall and CPU time, the book's size, then query latency on that book.
//!
//! `cargo build --release && cargo bench --bench scale -- --games 1000000` (docs/benchmarks.md).

mod child;
mod query;
mod synth;

use anyhow::{bail, Context, Result};
use clap::Parser;
use othbook::board::{parse_moves, Move};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;
use synth::{Kind, Openings};

/// What games the collection holds.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum KindArg {
    /// Uniformly random legal moves, played to the end.
    Random,
    /// A real game's line as far as other real games share it, then random moves.
    Openings,
}

/// The generator's version, kept in a cached collection's manifest: change it whenever
/// synth.rs would give other games for the same seed, so that older collections are made again.
const GENERATOR: u32 = 1;

/// Memory left to the rest of the machine: the build is stopped if less remains.
const FLOOR: u64 = 1 << 30;

/// Positions queried, beside one from the collection's first game.
const QUERY_LINES: [&str; 5] = ["", "f5", "f5d6", "f5d6c3d3c4", "f5f6e6f4e3"];

#[derive(clap::Parser, Debug)]
#[command(
    name = "scale",
    about = "Makes a synthetic game collection (cached), builds a book from it with \
`othbook build` and measures the build and queries on the book.",
    after_help = "Examples:\n  cargo bench --bench scale -- --games 100000\n  cargo bench \
--bench scale -- --games 1000000 --kind openings --openings ../shared/data/wthor\n  cargo \
bench --bench scale -- --games 10000000 --generate-only --out /data/scale"
)]
struct Args {
    /// Games in the collection.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// Random games, or games that follow real openings and then diverge.
    #[arg(long, value_enum, default_value = "random")]
    kind: KindArg,
    /// Players in the pool (0: games without names or years, as move lists). With players,
    /// each game names two of them (a few play many games, most few) and a year from 1977
    /// to 2026, as CSV; the filtered queries are then measured too.
    #[arg(long, default_value_t = 0)]
    players: u64,
    /// Seed: the same seed, count and openings give the same files.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Real games for --kind openings: books with a game table, folders of game files, or
    /// game files (default: books/wthor.book).
    #[arg(long)]
    openings: Vec<PathBuf>,
    /// Folder for the collections and books (default: target/scale).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Make (or find) the collection and stop.
    #[arg(long)]
    generate_only: bool,
    /// Measure the queries on the book an earlier run built (no build).
    #[arg(long, conflicts_with = "generate_only")]
    queries_only: bool,
    /// `build --plies`.
    #[arg(long, default_value_t = 40)]
    plies: u8,
    /// `build --min-games`.
    #[arg(long, default_value_t = 2)]
    min_games: u32,
    /// Threads for making games and for the build (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// The othbook binary (default: target/release/othbook).
    #[arg(long)]
    othbook: Option<PathBuf>,
    /// One more argument for `othbook build` (repeat for several), e.g. --build-arg=--dedupe.
    #[arg(long = "build-arg", allow_hyphen_values = true)]
    build_args: Vec<String>,
    /// Expected build memory per ply read, bytes: with the games' plies it decides whether
    /// the build fits in MemAvailable (the in-memory build takes about 380).
    #[arg(long, default_value_t = 400)]
    bytes_per_ply: u64,
    /// Expected peak memory of the build in MiB, instead of the per-ply estimate (for a build
    /// given a memory budget).
    #[arg(long)]
    expect_peak_mib: Option<u64>,
    /// Timed runs of each query.
    #[arg(long, default_value_t = 20)]
    repeat: usize,
    /// Given by `cargo bench`; nothing to do with it.
    #[arg(long, hide = true)]
    bench: bool,
}

fn main() -> Result<()> {
    // `cargo test --benches` runs this without arguments: a benchmark has no test to run.
    if std::env::args_os().len() == 1 {
        println!("scale: a benchmark; run `cargo test --release --bench scale -- --help`");
        return Ok(());
    }
    let args = Args::parse();
    if let Some(n) = args.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .context("--threads")?;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| root.join("target").join("scale"));
    let openings = match args.kind {
        KindArg::Random => None,
        KindArg::Openings => Some(load_openings(&args, root)?),
    };
    let kind = openings.as_ref().map_or(Kind::Random, Kind::Openings);
    // Checked before making the collection too: a skipped build needs no games.
    if !args.generate_only && !args.queries_only && memory_for_build(&args)?.is_none() {
        return Ok(());
    }
    let (dir, files) = collection(&out, kind, args.seed, args.games, args.players)?;
    if args.generate_only {
        return Ok(());
    }
    let othbook = args
        .othbook
        .clone()
        .unwrap_or_else(|| root.join("target").join("release").join("othbook"));
    if !othbook.is_file() {
        bail!(
            "{}: no othbook binary (build it first: cargo build --release)",
            othbook.display()
        );
    }
    let book = dir.join(format!("book-p{}-m{}.book", args.plies, args.min_games));
    if args.queries_only {
        if !book.is_file() {
            bail!(
                "{}: no book yet (run without --queries-only)",
                book.display()
            );
        }
    } else if !build(&args, &othbook, &files, &book)? {
        return Ok(());
    }
    let mut lines: Vec<Vec<Move>> = QUERY_LINES
        .iter()
        .map(|l| parse_moves(l).expect("a query line"))
        .collect();
    // The first game's real line (a position other games reach too), or 20 random plies.
    let mut first = Vec::new();
    let played = synth::game(kind, args.seed, 0, &mut first);
    first.truncate(if played.followed > 0 {
        played.followed
    } else {
        20
    });
    lines.push(first);
    println!();
    query::measure(&book, &lines, args.repeat)?;
    if args.players > 0 {
        query::filtered(&book, &lines, args.repeat, &synth::player_name(0))?;
    }
    query::commands(&othbook, &book, "f5d6c3", 5)
}

fn load_openings(args: &Args, root: &Path) -> Result<Openings> {
    let paths = if args.openings.is_empty() {
        vec![root.join("books").join("wthor.book")]
    } else {
        args.openings.clone()
    };
    let t = Instant::now();
    let o = Openings::load(&paths)?;
    println!(
        "openings: {} games, followed for {:.1} plies on average (shared with another game), \
         read in {:.2} s",
        o.len(),
        o.mean_follow(),
        t.elapsed().as_secs_f64()
    );
    Ok(o)
}

/// The collection's folder and files: found complete in the cache, or made now.
fn collection(
    out: &Path,
    kind: Kind<'_>,
    seed: u64,
    games: u64,
    players: u64,
) -> Result<(PathBuf, Vec<PathBuf>)> {
    let (mut name, mut what) = match kind {
        Kind::Random => (format!("random-s{seed}-{games}"), "random".to_string()),
        Kind::Openings(o) => {
            let fp = o.fingerprint();
            (
                format!("openings-{fp:016x}-s{seed}-{games}"),
                format!("openings {fp:016x}"),
            )
        }
    };
    if players > 0 {
        name = format!("{name}-p{players}");
        what = format!("{what}, {players} players");
    }
    let dir = out.join(name);
    let manifest = dir.join("collection.txt");
    let head = format!(
        "{what}, seed {seed}, {games} games, {} per file, generator {}\n",
        synth::GAMES_PER_FILE,
        GENERATOR
    );
    if let Some(files) = cached(&dir, &manifest, &head) {
        println!(
            "collection: {} ({} files, cached)",
            dir.display(),
            files.len()
        );
        return Ok((dir, files));
    }
    let t = Instant::now();
    let (files, bytes) = synth::write_collection(&dir, kind, seed, games, players)?;
    let secs = t.elapsed().as_secs_f64();
    let mut text = head;
    for f in &files {
        let size = std::fs::metadata(f)?.len();
        text.push_str(&format!("{} {size}\n", file_name(f)));
    }
    // Written last: a folder without it (an interrupted run) is made again.
    othbook::atomic_file::replace(&manifest, |w| std::io::Write::write_all(w, text.as_bytes()))
        .with_context(|| format!("{}", manifest.display()))?;
    println!(
        "collection: {} made in {secs:.2} s, {:.0} games/s, {:.1} MB in {} files",
        dir.display(),
        games as f64 / secs,
        bytes as f64 / 1e6,
        files.len()
    );
    Ok((dir, files))
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

/// The files the manifest lists, if it is for this collection and they are all there whole.
fn cached(dir: &Path, manifest: &Path, head: &str) -> Option<Vec<PathBuf>> {
    let text = std::fs::read_to_string(manifest).ok()?;
    let rest = text.strip_prefix(head)?;
    rest.lines()
        .map(|l| {
            let (name, size) = l.rsplit_once(' ')?;
            let path = dir.join(name);
            let whole = std::fs::metadata(&path).ok()?.len() == size.parse::<u64>().ok()?;
            whole.then_some(path)
        })
        .collect()
}

fn gib(bytes: u64) -> f64 {
    bytes as f64 / f64::from(1u32 << 30)
}

/// The build's expected peak memory, if the machine has it to spare now; else says why not.
fn memory_for_build(args: &Args) -> Result<Option<u64>> {
    let plies = u64::from(args.plies).min(60);
    let expected = args
        .expect_peak_mib
        .map_or(args.games * plies * args.bytes_per_ply, |m| m << 20);
    let available = child::mem_available()?;
    if expected + FLOOR > available {
        println!(
            "skipped: not enough memory (the build is expected to need {:.1} GiB, MemAvailable \
             is {:.1} GiB and {:.0} GiB stays free; see --bytes-per-ply, --expect-peak-mib)",
            gib(expected),
            gib(available),
            gib(FLOOR)
        );
        return Ok(None);
    }
    Ok(Some(expected))
}

/// Builds `book` from `files` as a measured child; `false` when it was stopped for memory.
fn build(args: &Args, othbook: &Path, files: &[PathBuf], book: &Path) -> Result<bool> {
    let Some(expected) = memory_for_build(args)? else {
        return Ok(false);
    };
    let available = child::mem_available()?;
    let mut cmd = Command::new(othbook);
    cmd.arg("build")
        .args(files)
        .arg("-o")
        .arg(book)
        .args(["--plies", &args.plies.to_string()])
        .args(["--min-games", &args.min_games.to_string()])
        .args(&args.build_args)
        .env("SOURCE_DATE_EPOCH", "0");
    if let Some(n) = args.threads {
        cmd.args(["--threads", &n.to_string()]);
    }
    let load = child::load_average();
    println!(
        "\nbuild: {} games, --plies {} --min-games {} {}(expected peak {:.1} GiB, MemAvailable {:.1} GiB)",
        args.games,
        args.plies,
        args.min_games,
        args.build_args.iter().map(|a| format!("{a} ")).collect::<String>(),
        gib(expected),
        gib(available)
    );
    let cost = child::run(cmd, FLOOR)?;
    if cost.stopped_low_memory {
        println!(
            "stopped: MemAvailable fell below {:.0} GiB after {:.1} s (peak RSS {:.2} GiB)",
            gib(FLOOR),
            cost.wall.as_secs_f64(),
            gib(cost.peak_rss)
        );
        return Ok(false);
    }
    if cost.code != Some(0) {
        bail!("othbook build failed: exit code {:?}", cost.code);
    }
    let size = std::fs::metadata(book)?.len();
    let cpu = (cost.user + cost.system).as_secs_f64();
    let wall = cost.wall.as_secs_f64();
    println!(
        "\n| games | games/s | peak RSS | wall | CPU (user + sys) | book | load before / after |"
    );
    println!("|---|---|---|---|---|---|---|");
    println!(
        "| {} | {:.0} | {:.2} GiB | {wall:.1} s | {cpu:.1} s ({:.1} + {:.1}) | {:.1} MB | {} / {} |",
        args.games,
        args.games as f64 / wall,
        gib(cost.peak_rss),
        cost.user.as_secs_f64(),
        cost.system.as_secs_f64(),
        size as f64 / 1e6,
        load.map_or("?".into(), |l| format!("{l:.1}")),
        child::load_average().map_or("?".into(), |l| format!("{l:.1}")),
    );
    Ok(true)
}
