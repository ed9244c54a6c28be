//! The bounded-memory build and merge give the bytes of the build in memory, whatever the
//! budget (so however many runs and merge passes), the options and the games.

use super::{merge_files, Control, ExternalBuild, TempFolder};
use crate::book::tests::random_game;
use crate::book::{build, encode, BuildOptions, GameFilter, MinGames, PlayerColor};
use crate::transcript::GameRecord;
use proptest::prelude::*;
use std::sync::atomic::AtomicBool;

static GO: AtomicBool = AtomicBool::new(false);

fn control() -> Control<'static> {
    Control {
        stop: &GO,
        progress: &|_| {},
    }
}

fn games(seeds: &[u64], plies: usize) -> Vec<GameRecord> {
    seeds
        .iter()
        .map(|&s| {
            let mut g = random_game(s, plies, ["a.gam", "b.gam", "c.wtb"][(s % 3) as usize]);
            g.black = Some(["Ann", "Bob", "Éve"][(s % 3) as usize].into());
            g.white = (s % 5 != 0).then(|| "Zed".to_string());
            g
        })
        .collect()
}

/// The bytes of `games` built with `options` within `memory`, pushed `chunk` at a time.
fn external(games: &[GameRecord], options: &BuildOptions, memory: u64, chunk: usize) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.book");
    let mut b = ExternalBuild::new(options, 7, memory, &out, control()).unwrap();
    for c in games.chunks(chunk.max(1)) {
        b.push(c.to_vec()).unwrap();
    }
    b.finish(&out).unwrap();
    let bytes = std::fs::read(&out).unwrap();
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(left.len(), 1, "temporary files left: {left:?}");
    bytes
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn bounded_builds_are_the_build_in_memory(
        seeds in proptest::collection::vec(0u64..400, 0..60),
        plies in 1u8..30,
        min in 1u32..4,
        memory in 1u64..40,
        chunk in 1usize..20,
        filter in 0u8..4,
        threads in 1usize..4,
    ) {
        let g = games(&seeds, 40);
        let filter = match filter {
            0 => GameFilter::default(),
            1 => GameFilter::new(Some("eve".into()), PlayerColor::Either, None, None, false).unwrap(),
            2 => GameFilter::new(Some("zed".into()), PlayerColor::White, None, None, false).unwrap(),
            _ => GameFilter::new(None, PlayerColor::Either, Some(crate::book::Years::new(1995, 2005).unwrap()), None, true).unwrap(),
        };
        let options = BuildOptions::new(plies, min, filter).unwrap();
        let whole = encode(&build(&g, &options, 7, &|_| {}).unwrap().0).unwrap();
        // A budget of a few games: many runs, merged two at a time; at `--min-games` 2 or
        // more, the positions counted first on any number of threads.
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let bounded = pool.install(|| external(&g, &options, memory * 4000, chunk));
        prop_assert!(whole == bounded, "the books differ");
    }
}

/// Books merged table by table are the books merged in memory, with pruning.
#[test]
fn streamed_merges_are_merges_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let options = BuildOptions::new(20, 1, GameFilter::default()).unwrap();
    let parts: Vec<Vec<u64>> = vec![
        (0..40).collect(),
        (30..90).collect(),
        vec![],
        (5..8).collect(),
    ];
    let mut paths = Vec::new();
    let mut datas = Vec::new();
    for (i, seeds) in parts.iter().enumerate() {
        let d = build(&games(seeds, 50), &options, 100 + i as u64, &|_| {})
            .unwrap()
            .0;
        let p = dir.path().join(format!("{i}.book"));
        crate::book::write_book(&p, &d).unwrap();
        paths.push(p);
        datas.push(d);
    }
    for (min, memory) in [(1, 1 << 30), (2, 1 << 16), (5, 1 << 20)] {
        let out = dir.path().join("m.book");
        let mut folder = TempFolder::beside(&out);
        let min = MinGames::new(min).unwrap();
        merge_files(&paths, min, memory, &out, &mut folder, &control()).unwrap();
        drop(folder);
        let merged = crate::book::BookData::merge(&datas, min).unwrap();
        assert!(
            std::fs::read(&out).unwrap() == encode(&merged).unwrap(),
            "--min-games {}, memory {memory}: the books differ",
            min.get()
        );
    }
}

/// Games whose pruned build fits the budget are built in memory at once, not spilled as
/// unpruned runs: the budget was counted as for an unpruned build whatever `--min-games`,
/// so a 100,000-game build at the default budget took three times as long as before.
#[test]
fn regression_input_that_fits_a_pruned_build_was_spilled() {
    let g = games(&(0..100).collect::<Vec<_>>(), 60);
    let options = BuildOptions::new(40, 2, GameFilter::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.book");
    // About 10 KB a game: a pruned build of 41 plies needs less, an unpruned one more.
    let mut b = ExternalBuild::new(&options, 7, 100 * 10_000, &out, control()).unwrap();
    b.push(g.clone()).unwrap();
    let (written, _) = b.finish(&out).unwrap();
    assert_eq!(written.runs, 0, "the games were spilled");
    let whole = encode(&build(&g, &options, 7, &|_| {}).unwrap().0).unwrap();
    assert!(std::fs::read(&out).unwrap() == whole, "the books differ");
}

/// A run written when the budget filled left the game that filled it to a run of its own:
/// twice the runs, every other one of a single game.
#[test]
fn regression_a_full_run_was_followed_by_a_run_of_one_game() {
    let g = games(&(0..100).collect::<Vec<_>>(), 60);
    let exact = BuildOptions::new(40, 1, GameFilter::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.book");
    let mut b = ExternalBuild::new(&exact, 7, 100 * 10_000, &out, control()).unwrap();
    b.push(g.clone()).unwrap();
    let (written, _) = b.finish(&out).unwrap();
    // About 12.6 KB a game, 1.26 MB in all: two runs, not a full one and one of one game.
    assert_eq!(written.runs, 2);
}

/// Bytes of the runs in the temporary folder of `out` when the last was written, for `games`
/// built within `memory`, and the book written.
fn run_bytes(games: &[GameRecord], options: &BuildOptions, memory: u64) -> (u64, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.book");
    let most = std::sync::atomic::AtomicU64::new(0);
    let measure = |_| {
        let folder = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.is_dir())
            .unwrap();
        let runs: u64 = std::fs::read_dir(folder)
            .unwrap()
            .map(|e| e.unwrap())
            .filter(|e| e.file_name().to_string_lossy().starts_with("run-"))
            .map(|e| e.metadata().unwrap().len())
            .sum();
        most.fetch_max(runs, std::sync::atomic::Ordering::Relaxed);
    };
    let control = Control {
        stop: &GO,
        progress: &measure,
    };
    let mut b = ExternalBuild::new(options, 7, memory, &out, control).unwrap();
    b.push(games.to_vec()).unwrap();
    let (written, _) = b.finish(&out).unwrap();
    assert!(written.runs > 1, "nothing was spilled");
    (most.into_inner(), std::fs::read(&out).unwrap())
}

/// At `--min-games` 2 the runs were whole unpruned books: every position seen once in all
/// the input (nearly all of a large collection's) was written, read back and merged, 40 GB
/// of temporary disk for ten million random games. Counted first, they are left out.
#[test]
fn regression_positions_seen_once_were_spilled() {
    let g = games(&(0..300).collect::<Vec<_>>(), 60);
    let pruned = BuildOptions::new(40, 2, GameFilter::default()).unwrap();
    let whole = pruned.with_min_games(MinGames::ONE);
    let (filtered, book) = run_bytes(&g, &pruned, 400_000);
    let (unfiltered, _) = run_bytes(&g, &whole, 400_000);
    assert!(
        filtered * 2 < unfiltered,
        "runs of {filtered} bytes at --min-games 2, {unfiltered} at 1"
    );
    let in_memory = encode(&build(&g, &pruned, 7, &|_| {}).unwrap().0).unwrap();
    assert!(book == in_memory, "the books differ");
}
