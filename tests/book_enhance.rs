//! `othbook book enhance` on a small book of real games (the 587 WTHOR games of 1984, 12
//! plies, evaluated 4 plies deep): the close positions it finds, what it leaves alone, the
//! negamax of its result, determinism, an interrupted run continued, and the errors.

mod common;
use common::{need, run_in};
use othbook::book::{encode, Book, BookData, Graph, Leaf};
use othbook::learn::{enhance, EnhanceReport, EnhanceSettings, LeafSettings, SearchRun};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

const WTHOR_1984: &str = "../shared/data/wthor/WTH_1984.wtb";
const WINDOW: f64 = 2.0;
const MIN_GAMES: u64 = 20;

/// The small book, evaluated at depth 4, made once per test process.
fn evaluated() -> &'static Path {
    static BOOK: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    common::book_once(&BOOK, "enhance-1984.book", |path| {
        let src = std::fs::canonicalize(need(WTHOR_1984)).unwrap();
        let dir = path.parent().unwrap();
        let raw = format!("{}.raw", path.display());
        for args in [
            vec![
                "build",
                src.to_str().unwrap(),
                "-o",
                &raw,
                "--plies",
                "12",
                "--min-games",
                "1",
            ],
            vec![
                "book",
                "evaluate",
                &raw,
                "-o",
                path.to_str().unwrap(),
                "--depth",
                "4",
            ],
        ] {
            let (code, _, err) = run_in(dir, &args);
            assert_eq!(code, Some(0), "{args:?}: {err}");
        }
    })
}

fn data() -> BookData {
    Book::open(evaluated()).unwrap().to_data().unwrap()
}

/// Enhances `data` with deeper searches at depth 6; `stop_after` leaf searches, the run is
/// stopped.
fn enhanced(
    data: &mut BookData,
    threads: usize,
    budgets: (usize, usize),
    stop_after: Option<usize>,
) -> EnhanceReport {
    let settings = EnhanceSettings::new(WINDOW, MIN_GAMES, budgets.0, budgets.1).unwrap();
    let stop = AtomicBool::new(false);
    let done = AtomicUsize::new(0);
    let tick = || {
        if stop_after.is_some_and(|n| done.fetch_add(1, Ordering::Relaxed) + 1 >= n) {
            stop.store(true, Ordering::Relaxed);
        }
    };
    let run = SearchRun {
        settings: LeafSettings::new(6, 0, 1).unwrap(),
        threads: othbook::engine::ThreadCount::new(threads).unwrap(),
        stop: &stop,
        tick: &tick,
        checkpoint_every: Duration::from_secs(3600),
    };
    enhance(data, &settings, &run, &mut |_, _| {}).unwrap()
}

/// The values of each position's moves (children by code, then the leaf), as negamax
/// takes them.
fn move_values(data: &BookData, graph: &Graph, i: usize) -> Vec<(Option<usize>, i32)> {
    let children = graph.nodes[i].children.iter().filter_map(|&(_, c)| {
        let v = data.positions[c as usize].eval.value?;
        Some((Some(c as usize), -i32::from(v.score)))
    });
    let leaf = match data.positions[i].eval.leaf {
        Leaf::Move { score, .. } | Leaf::ScoreOnly(score) => Some((None, i32::from(score.score))),
        _ => None,
    };
    children.chain(leaf).collect()
}

/// Best minus second best, in hundredths (`None` with fewer than two moves valued).
fn gap(data: &BookData, graph: &Graph, i: usize) -> Option<i32> {
    let mut v: Vec<i32> = move_values(data, graph, i).iter().map(|m| m.1).collect();
    v.sort_unstable_by(|a, b| b.cmp(a));
    (v.len() >= 2).then(|| v[0] - v[1])
}

/// The lines that matter, computed here from the rule the help gives: each position of
/// `MIN_GAMES` games or more, and its best line (the first best move, children before the
/// leaf) down to the position whose value comes from its leaf.
fn lines(data: &BookData, graph: &Graph) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::new();
    for root in (0..data.positions.len()).filter(|&i| data.positions[i].stats.games() >= MIN_GAMES)
    {
        let mut at = root;
        while !out.contains(&at) {
            out.push(at);
            let moves = move_values(data, graph, at);
            let Some(top) = moves.iter().map(|m| m.1).max() else {
                break;
            };
            match moves.iter().find(|m| m.1 == top).and_then(|m| m.0) {
                Some(c) => at = c,
                None => break,
            }
        }
    }
    out
}

/// Every value is the max of its leaf and its negated children, and no leaf is missing.
fn assert_negamaxed(data: &BookData) {
    let graph = Graph::of(data);
    for (i, p) in data.positions.iter().enumerate() {
        assert!(p.eval.leaf.is_known(), "{:?}: leaf missing", p.key);
        let want = move_values(data, &graph, i).iter().map(|m| m.1).max();
        let want = want.or(p.eval.leaf.score().map(|s| i32::from(s.score)));
        assert_eq!(
            p.eval.value.map(|v| i32::from(v.score)),
            want,
            "{:?}",
            p.key
        );
    }
}

#[test]
fn close_positions_are_found_by_the_rule_and_nothing_changes_without_a_budget() {
    let original = data();
    let graph = Graph::of(&original);
    let lines = lines(&original, &graph);
    let close = lines
        .iter()
        .filter(|&&i| gap(&original, &graph, i).is_some_and(|g| g <= 200))
        .count();
    assert!(
        close > 10 && close < lines.len(),
        "{close} of {}",
        lines.len()
    );
    let mut d = original.clone();
    let r = enhanced(&mut d, 2, (0, 0), None);
    assert_eq!((r.examined, r.close), (lines.len(), close), "{r:?}");
    assert_eq!((r.rounds, r.added, r.searched_deeper), (0, 0, 0));
    assert!(encode(&d).unwrap() == encode(&original).unwrap());
}

#[test]
fn enhancing_searches_deeper_adds_positions_keeps_the_negamax_and_leaves_far_positions_alone() {
    let original = data();
    let mut d = original.clone();
    let r = enhanced(&mut d, 2, (10_000, 10_000), None);
    assert!(!r.stopped && r.rounds >= 2, "{r:?}");
    assert!(r.searched_deeper > 10 && r.added > 10, "{r:?}");
    assert!(r.values_changed > 0 && r.max_shift > 0.0, "{r:?}");
    assert_negamaxed(&d);
    let added: Vec<_> = d.positions.iter().filter(|p| p.eval.added).collect();
    assert_eq!(added.len(), r.added);
    assert!(added.iter().all(|p| p.stats.games() == 0));
    // Deeper leaves are at depth 6 (or exact); the rest of the book is as it was.
    let deep = d
        .positions
        .iter()
        .filter(|p| p.eval.leaf.score().is_some_and(|s| s.depth >= 6))
        .count();
    assert!(deep >= r.searched_deeper, "{deep} deep leaves, {r:?}");
    // A position on the lines whose moves are far apart, before and after, gets no move
    // added: only close positions are expanded.
    let (g0, g1) = (Graph::of(&original), Graph::of(&d));
    let index = d.key_index();
    let mut far = 0;
    for i in lines(&original, &g0) {
        let j = index[&original.positions[i].key];
        let apart = |g: Option<i32>| g.is_some_and(|g| g > 500);
        if apart(gap(&original, &g0, i)) && apart(gap(&d, &g1, j)) {
            assert_eq!(g0.nodes[i].children.len(), g1.nodes[j].children.len());
            far += 1;
        }
    }
    assert!(far >= 5, "{far} far positions checked");
    // Nothing is left to do: a second run changes no byte.
    let mut again = d.clone();
    let r2 = enhanced(&mut again, 2, (10_000, 10_000), None);
    assert_eq!(
        (r2.rounds, r2.added, r2.searched_deeper),
        (0, 0, 0),
        "{r2:?}"
    );
    assert!(encode(&again).unwrap() == encode(&d).unwrap());
}

#[test]
fn thread_count_and_interruption_do_not_change_the_bytes() {
    let mut one = data();
    let mut two = data();
    let r1 = enhanced(&mut one, 1, (10_000, 10_000), None);
    let r2 = enhanced(&mut two, 2, (10_000, 10_000), None);
    assert_eq!(r1, r2);
    let whole = encode(&one).unwrap();
    assert!(whole == encode(&two).unwrap());
    // Stopped after some of the searches, saved, read back and run again.
    let mut d = data();
    let stopped = enhanced(&mut d, 2, (10_000, 10_000), Some(r1.searched / 2));
    assert!(stopped.stopped, "{stopped:?}");
    d.relink();
    let mut back = Book::from_bytes(encode(&d).unwrap(), "cp.book")
        .unwrap()
        .to_data()
        .unwrap();
    let rest = enhanced(&mut back, 2, (10_000, 10_000), None);
    assert!(!rest.stopped);
    assert!(
        encode(&back).unwrap() == whole,
        "resumed and uninterrupted runs differ"
    );
}

fn ok(dir: &Path, args: &[&str]) -> String {
    let (code, out, err) = run_in(dir, args);
    assert_eq!(code, Some(0), "{args:?}: {err}");
    out
}

#[test]
fn the_command_reports_saves_continues_after_ctrl_c_and_refuses_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::copy(evaluated(), d.join("small.book")).unwrap();
    let args = |out: &'static str| {
        vec![
            "book",
            "enhance",
            "small.book",
            "-o",
            out,
            "--min-games",
            "10",
            "--depth",
            "10",
            "--checkpoint",
            "0.002",
        ]
    };
    let out = ok(d, &args("whole.book"));
    assert!(
        out.contains("positions examined") && out.contains("best move changed at"),
        "{out}"
    );
    let saved = |p: &Path| Book::open(p).is_ok_and(|b| b.has_values());
    let (code, _, err) = common::interrupted_after_work(
        d,
        &args("cut.book"),
        Duration::from_millis(500),
        &d.join("cut.book"),
        saved,
    );
    assert_eq!(code, Some(130), "the run ended before the signal\n{err}");
    assert!(err.contains("book enhance cut.book"), "{err}");
    let mut again = args("cut.book");
    again.drain(2..5);
    again.insert(2, "cut.book");
    let json = ok(d, &[again.as_slice(), &["--json"]].concat());
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["stopped"], false, "{json}");
    assert!(
        std::fs::read(d.join("cut.book")).unwrap() == std::fs::read(d.join("whole.book")).unwrap(),
        "continued and uninterrupted runs differ"
    );
    for (window, why) in [
        ("-1", "out of range"),
        ("65", "out of range"),
        ("NaN", "out of range"),
    ] {
        let arg = format!("--window={window}");
        let (code, _, err) = run_in(d, &["book", "enhance", "small.book", &arg]);
        assert_eq!(code, Some(2), "{window}: {err}");
        assert!(err.contains(why) && err.contains("--window"), "{err}");
    }
    let (code, _, err) = run_in(
        d,
        &[
            "build",
            std::fs::canonicalize(need(WTHOR_1984))
                .unwrap()
                .to_str()
                .unwrap(),
            "-o",
            "raw.book",
            "--plies",
            "6",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = run_in(d, &["book", "enhance", "raw.book"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("has no values: run `othbook book evaluate`"),
        "{err}"
    );
    assert!(std::fs::metadata(d.join("small.book")).is_ok());
    let help = ok(d, &["book", "enhance", "--help"]);
    assert!(
        help.contains("Examples:") && help.contains("--window"),
        "{help}"
    );
}
