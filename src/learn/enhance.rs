//! Enhancement, as Edax's `book enhance`: more search where the book's choice is close. On the
//! lines that matter (every position reached by at least `min_games` games, and the best line
//! from each), a position whose best and second-best moves are within `window` discs has its
//! moves within the window made surer: its leaf move (the best move out of the book) is
//! played and added as a position with its own searched leaf, and the position's next best
//! move out of the book is searched; a move into the book takes its value from the end of its
//! best line, whose leaf is searched again deeper. Values are negamaxed and the rounds repeat
//! until no close move is left to search or a budget is spent.
//!
//! Each round's work is put into the book as missing leaves (added positions, and the leaves
//! to search deeper dropped) and searched like any missing leaf: a book saved in the middle of
//! a round holds exactly what is left to do, so a rerun, which searches missing leaves first,
//! ends where an uninterrupted run would. Every leaf search is deterministic and the work is
//! chosen in a fixed order, so the thread count changes nothing.

use crate::board::Board;
use crate::book::key::{Canonical, Key};
use crate::book::{board_of, BookData, Graph, Leaf, NewLink, Score, ValueKind};
use crate::learn::deviate::child_key;
use crate::learn::{search, LearnError, SearchRun, SettingsError, MAX_WINDOW};
use ahash::{AHashMap, AHashSet};

/// Which positions are examined and how much may change; checked when made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EnhanceSettings {
    window: i32,
    min_games: u64,
    max_positions: usize,
    max_searches: usize,
}

impl EnhanceSettings {
    /// Positions whose best and second-best moves are at most `window` discs apart, on the
    /// lines from the positions reached by at least `min_games` games; at most
    /// `max_positions` positions added and `max_searches` leaves searched deeper in a run.
    pub fn new(
        window: f64,
        min_games: u64,
        max_positions: usize,
        max_searches: usize,
    ) -> Result<EnhanceSettings, SettingsError> {
        if !(0.0..=MAX_WINDOW).contains(&window) {
            return Err(SettingsError::Window(window));
        }
        Ok(EnhanceSettings {
            window: (window * 100.0).round() as i32,
            min_games: min_games.max(1),
            max_positions,
            max_searches,
        })
    }

    /// The window, in discs.
    #[must_use]
    pub fn window(&self) -> f64 {
        f64::from(self.window) / 100.0
    }

    /// Positions reached by at least this many games start the lines examined.
    #[must_use]
    pub fn min_games(&self) -> u64 {
        self.min_games
    }
}

/// What an enhancement run did and changed.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct EnhanceReport {
    /// Rounds (choose, search, negamax).
    pub rounds: usize,
    /// Positions on the lines that matter, over all rounds.
    pub examined: usize,
    /// Of these, positions whose best and second-best moves were within the window.
    pub close: usize,
    /// Leaves searched again deeper.
    pub searched_deeper: usize,
    /// Positions added (a close leaf move played).
    pub added: usize,
    /// Leaf searches in all (deeper ones, added positions' and their parents' next best).
    pub searched: usize,
    /// Close positions of the book as it was whose best move is another now.
    pub best_changed: usize,
    /// Close positions of the book as it was whose value changed.
    pub values_changed: usize,
    /// The mean change of the close positions' values, in discs (0 when none).
    pub mean_shift: f64,
    /// The largest change of a close position's value, in discs.
    pub max_shift: f64,
    /// The start position's value before, in discs.
    pub start_before: Option<f64>,
    /// The start position's value after, in discs.
    pub start_after: Option<f64>,
    /// Stopped by the caller before the end.
    pub stopped: bool,
}

/// Runs enhancement on `data` (an evaluated book), searching leaves as `run` says (its depth
/// is the deeper search); `save` is called after each round, and every `run.checkpoint_every`
/// during a round's searches with the book as it would be if the run stopped there.
pub fn enhance(
    data: &mut BookData,
    settings: &EnhanceSettings,
    run: &SearchRun<'_>,
    save: &mut dyn FnMut(&BookData, &EnhanceReport),
) -> Result<EnhanceReport, LearnError> {
    if data.info.evaluation.is_none() {
        return Err(LearnError::NotEvaluated);
    }
    let mut report = EnhanceReport::default();
    // Leaves an interrupted run left missing are searched first, so a rerun goes on from the
    // book an uninterrupted run would have had.
    if !search_missing(data, run, &mut report, save)? {
        report.stopped = true;
        return Ok(report);
    }
    let before = outline(data, &Graph::of(data));
    report.start_before = start_value(data);
    let mut examined: AHashSet<Key> = AHashSet::new();
    let mut close: AHashSet<Key> = AHashSet::new();
    let mut deepened: AHashSet<Key> = AHashSet::new();
    loop {
        let graph = Graph::of(data);
        let lines = lines(data, &graph, settings.min_games);
        examined.extend(lines.iter().map(|&i| data.positions[i].key));
        let work = choose(
            data,
            &graph,
            &lines,
            settings,
            run.settings.depth(),
            &deepened,
        );
        close.extend(work.close.iter().copied());
        let links = cap_links(
            work.links,
            settings.max_positions.saturating_sub(report.added),
        );
        let mut deeper = work.deeper;
        deeper.truncate(settings.max_searches.saturating_sub(report.searched_deeper));
        if links.is_empty() && deeper.is_empty() {
            break;
        }
        for &i in &deeper {
            deepened.insert(data.positions[i].key);
            data.positions[i].eval.leaf = Leaf::Missing;
        }
        report.searched_deeper += deeper.len();
        report.added += data.add_links(&links)?;
        let done = search_missing(data, run, &mut report, save)?;
        report.rounds += 1;
        (report.examined, report.close) = (examined.len(), close.len());
        save(data, &report);
        if !done {
            report.stopped = true;
            break;
        }
    }
    (report.examined, report.close) = (examined.len(), close.len());
    report.start_after = start_value(data);
    let mut keys: Vec<Key> = close.into_iter().collect();
    keys.sort_unstable();
    changes(
        &before,
        &outline(data, &Graph::of(data)),
        &keys,
        &mut report,
    );
    Ok(report)
}

/// Searches every missing leaf and negamaxes; false when stopped first.
fn search_missing(
    data: &mut BookData,
    run: &SearchRun<'_>,
    report: &mut EnhanceReport,
    save: &mut dyn FnMut(&BookData, &EnhanceReport),
) -> Result<bool, LearnError> {
    let seen = report.clone();
    let (done, searched) = search::search_missing::<LearnError>(data, run, &mut |d| {
        save(d, &seen);
        Ok(())
    })?;
    report.searched += searched;
    Ok(done)
}

/// The start position's value in discs.
fn start_value(data: &BookData) -> Option<f64> {
    let key = Canonical::of(&Board::START).key;
    let p = data.positions.iter().find(|p| p.key == key)?;
    p.eval.value.map(|v| v.discs())
}

/// A move of a position with its value for the mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Choice {
    /// Canonical move code (`None`: a leaf scored without its move).
    code: Option<u8>,
    /// The position it leads to, when that is in the book.
    child: Option<usize>,
    /// Its value for the side playing it.
    score: Score,
}

/// The moves of position `i` that have a value, in the order negamax takes them (children by
/// code, then the leaf), so that the first of the highest is the one that gives the value.
fn choices(data: &BookData, graph: &Graph, i: usize) -> Vec<Choice> {
    let mut out: Vec<Choice> = graph.nodes[i]
        .children
        .iter()
        .filter_map(|&(code, c)| {
            let v = data.positions[c as usize].eval.value?;
            Some(Choice {
                code: Some(code),
                child: Some(c as usize),
                score: v.negated(),
            })
        })
        .collect();
    match data.positions[i].eval.leaf {
        Leaf::Move { code, score } => out.push(Choice {
            code: Some(code),
            child: None,
            score,
        }),
        Leaf::ScoreOnly(score) => out.push(Choice {
            code: None,
            child: None,
            score,
        }),
        Leaf::Missing | Leaf::InBook | Leaf::GameOver(_) => {}
    }
    out
}

/// The move that gives position `i` its value: the first of the highest.
fn best(data: &BookData, graph: &Graph, i: usize) -> Option<Choice> {
    choices(data, graph, i)
        .into_iter()
        .reduce(|b, c| if c.score.score > b.score.score { c } else { b })
}

/// The lines that matter: each position with a value reached by at least `min_games` games
/// (most played first, then by key), and the best line from it to the position whose value
/// comes from its own leaf. Each position once, in that order.
fn lines(data: &BookData, graph: &Graph, min_games: u64) -> Vec<usize> {
    let mut roots: Vec<usize> = (0..data.positions.len())
        .filter(|&i| {
            let p = &data.positions[i];
            p.stats.games() >= min_games && p.eval.value.is_some()
        })
        .collect();
    roots.sort_unstable_by_key(|&i| {
        let p = &data.positions[i];
        (std::cmp::Reverse(p.stats.games()), p.key)
    });
    let mut seen = vec![false; data.positions.len()];
    let mut out = Vec::new();
    for root in roots {
        let mut at = root;
        // A line met before goes on as it went then: the best line from a position is one.
        while !seen[at] {
            seen[at] = true;
            out.push(at);
            match best(data, graph, at).and_then(|b| b.child) {
                Some(c) => at = c,
                None => break,
            }
        }
    }
    out
}

/// The position whose leaf gives position `i` its value, following best moves.
fn source(data: &BookData, graph: &Graph, i: usize) -> Option<usize> {
    let mut at = i;
    loop {
        match best(data, graph, at)?.child {
            Some(c) => at = c,
            None => return Some(at),
        }
    }
}

/// One round's work, in the order found.
#[derive(Debug, Default)]
struct Work {
    /// The close positions.
    close: Vec<Key>,
    /// Leaf moves to play and add.
    links: Vec<NewLink>,
    /// Positions whose leaf is searched again deeper, each once.
    deeper: Vec<usize>,
}

/// The work of a round: for each close position of `lines`, its moves within the window of
/// the best: a midgame leaf move is added; a move into the book has the leaf at the end of
/// its best line searched again if that is a midgame score shallower than `depth` (and was
/// not searched deeper in this run already).
fn choose(
    data: &BookData,
    graph: &Graph,
    lines: &[usize],
    settings: &EnhanceSettings,
    depth: u8,
    deepened: &AHashSet<Key>,
) -> Work {
    let mut work = Work::default();
    let mut queued = vec![false; data.positions.len()];
    let shallow = |s: Score| s.kind == ValueKind::Midgame && s.depth < depth;
    for &i in lines {
        let moves = choices(data, graph, i);
        let Some(top) = moves.iter().map(|c| i32::from(c.score.score)).max() else {
            continue;
        };
        let within = |c: &&Choice| i32::from(c.score.score) >= top - settings.window;
        if moves.len() < 2 || moves.iter().filter(within).count() < 2 {
            continue;
        }
        let key = data.positions[i].key;
        work.close.push(key);
        for m in moves.iter().filter(within) {
            let deeper = match (m.child, m.code) {
                (Some(c), _) => source(data, graph, c),
                (None, Some(code)) if m.score.kind == ValueKind::Midgame => {
                    let board = board_of(key);
                    work.links.push(NewLink {
                        parent: key,
                        code,
                        child: child_key(&board, code),
                    });
                    None
                }
                (None, None) => Some(i),
                (None, Some(_)) => None,
            };
            if let Some(q) = deeper {
                let leaf = data.positions[q].eval.leaf.score();
                let fresh = !deepened.contains(&data.positions[q].key);
                if !queued[q] && fresh && leaf.is_some_and(shallow) {
                    queued[q] = true;
                    work.deeper.push(q);
                }
            }
        }
    }
    work
}

/// The links to add, up to `room` new positions, in the order found.
fn cap_links(links: Vec<NewLink>, room: usize) -> Vec<NewLink> {
    let mut children: Vec<Key> = Vec::new();
    let mut out = Vec::new();
    for l in links {
        if out.contains(&l) {
            continue;
        }
        if children.contains(&l.child) || children.len() < room {
            if !children.contains(&l.child) {
                children.push(l.child);
            }
            out.push(l);
        }
    }
    out
}

/// Each position's best move code and value.
type Outline = AHashMap<Key, (Option<u8>, Option<i16>)>;

fn outline(data: &BookData, graph: &Graph) -> Outline {
    (0..data.positions.len())
        .map(|i| {
            let p = &data.positions[i];
            let code = best(data, graph, i).and_then(|b| b.code);
            (p.key, (code, p.eval.value.map(|v| v.score)))
        })
        .collect()
}

/// How the best moves and values of `keys` (those `before` holds) changed.
fn changes(before: &Outline, after: &Outline, keys: &[Key], report: &mut EnhanceReport) {
    let (mut count, mut sum, mut max) = (0usize, 0f64, 0f64);
    for key in keys {
        let (Some(&(b_code, b_value)), Some(&(a_code, a_value))) =
            (before.get(key), after.get(key))
        else {
            continue;
        };
        report.best_changed += usize::from(b_code != a_code);
        if let (Some(b), Some(a)) = (b_value, a_value) {
            let shift = f64::from((i32::from(a) - i32::from(b)).abs()) / 100.0;
            report.values_changed += usize::from(a != b);
            sum += shift;
            max = f64::max(max, shift);
            count += 1;
        }
    }
    report.mean_shift = if count == 0 { 0.0 } else { sum / count as f64 };
    report.max_shift = max;
}
