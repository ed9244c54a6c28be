//! Deviation learning, as Edax's `book deviate`: walk the book from the start along the
//! moves whose values are close to the best (for the side to move: within `relative` discs;
//! for the start position's side: within `absolute` discs of the start's value), and add the
//! leaves on that walk that are close enough too, searching each new position's leaf, until
//! nothing more qualifies or enough positions were added. Each round is deterministic (the
//! candidates are sorted, and every leaf search is), so the result does not depend on the
//! thread count.

use crate::board::Board;
use crate::book::key::{Canonical, Key};
use crate::book::{board_of, BookData, Graph, Leaf, NewLink, Score};
use crate::learn::{check_kept_leaves, search, LearnError, SearchRun};

/// How far from the best line deviation goes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DeviateSettings {
    /// Moves within this many discs of the position's best value are followed (and leaves
    /// within it added).
    pub relative: f64,
    /// ... and within this many discs of the start position's value, from its side's view.
    pub absolute: f64,
    /// Leaves are added from positions at fewer plies than this.
    pub until: u32,
    /// At most this many positions are added.
    pub max: usize,
}

/// What a deviation run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DeviateReport {
    /// Rounds (walk, add, search).
    pub rounds: usize,
    /// Positions added.
    pub added: usize,
    /// Leaves searched (the new positions' and their parents' new ones).
    pub searched: usize,
    /// Stopped by the caller before the end.
    pub stopped: bool,
}

/// Runs deviation learning on `data` (an evaluated book), searching leaves as `run` says;
/// `save` is called after each round, and every `run.checkpoint_every` during a round's
/// searches with the book as it would be if the round stopped there (for checkpoints).
/// Refuses a book whose leaves were searched with other settings than `run`'s.
pub fn deviate(
    data: &mut BookData,
    settings: &DeviateSettings,
    run: &SearchRun<'_>,
    save: &mut dyn FnMut(&BookData, &DeviateReport),
) -> Result<DeviateReport, LearnError> {
    let mut report = DeviateReport::default();
    // Every leaf stays: they must be of the settings new leaves are searched with.
    check_kept_leaves(data, &run.settings, |_| false)?;
    data.info.evaluation = Some(run.settings.info());
    // Leaves an interrupted run left missing are searched first, so a rerun walks the same
    // book an uninterrupted run would have.
    if !search_missing(data, run, &mut report, save)? {
        report.stopped = true;
        return Ok(report);
    }
    loop {
        let graph = Graph::of(data);
        let mut links = candidates(data, &graph, settings)?;
        let room = settings.max - report.added;
        if links.is_empty() || room == 0 {
            break;
        }
        // New positions in candidate order up to the room left; several leaves may lead to
        // one new position.
        let mut children: Vec<Key> = Vec::new();
        links.retain(|l| {
            if children.contains(&l.child) {
                return true;
            }
            if children.len() < room {
                children.push(l.child);
                return true;
            }
            false
        });
        report.added += data.add_links(&links)?;
        let done = search_missing(data, run, &mut report, save)?;
        report.rounds += 1;
        save(data, &report);
        if !done {
            report.stopped = true;
            break;
        }
    }
    Ok(report)
}

/// Searches every missing leaf of `data` and negamaxes; false when stopped first.
fn search_missing(
    data: &mut BookData,
    run: &SearchRun<'_>,
    report: &mut DeviateReport,
    save: &mut dyn FnMut(&BookData, &DeviateReport),
) -> Result<bool, LearnError> {
    let seen = *report;
    let (done, searched) = search::search_missing::<LearnError>(data, run, &mut |d| {
        save(d, &seen);
        Ok(())
    })?;
    report.searched += searched;
    Ok(done)
}

/// The leaves to add this round, sorted: walking from the start along moves within the
/// windows, each leaf within the windows of a position fewer than `until` plies deep.
fn candidates(
    data: &BookData,
    graph: &Graph,
    settings: &DeviateSettings,
) -> Result<Vec<NewLink>, LearnError> {
    let index = data.key_index();
    let start = *index
        .get(&Canonical::of(&Board::START).key)
        .ok_or(LearnError::NotEvaluated)?;
    let root = data.positions[start]
        .eval
        .value
        .ok_or(LearnError::NotEvaluated)?;
    let rel = (settings.relative * 100.0).round() as i32;
    let abs = (settings.absolute * 100.0).round() as i32;
    let mut links = Vec::new();
    let mut seen = vec![false; data.positions.len()];
    // (position, +1 when its side to move is the start's side, −1 otherwise)
    let mut stack = vec![(start, 1i32)];
    seen[start] = true;
    while let Some((i, sign)) = stack.pop() {
        let p = &data.positions[i];
        let Some(best) = p.eval.value else {
            continue;
        };
        let within = |s: Score| {
            let s = i32::from(s.score);
            i32::from(best.score) - s <= rel && (sign * s - i32::from(root.score)).abs() <= abs
        };
        let board = board_of(p.key);
        let ply = 60 - board.empty_count();
        if let Leaf::Move { code, score } = p.eval.leaf {
            if ply < settings.until && within(score) {
                links.push(NewLink {
                    parent: p.key,
                    code,
                    child: child_key(&board, code),
                });
            }
        }
        // Children in reverse code order on the stack: visited in code order.
        for &(_, c) in graph.nodes[i].children.iter().rev() {
            let c = c as usize;
            let Some(v) = data.positions[c].eval.value else {
                continue;
            };
            if !seen[c] && within(v.negated()) {
                seen[c] = true;
                stack.push((c, -sign));
            }
        }
    }
    links.sort_unstable();
    Ok(links)
}

/// The canonical key after playing canonical move `code` on the canonical board `board`.
pub(super) fn child_key(board: &Board, code: u8) -> Key {
    let mv = crate::book::key::code_move(code).expect("a stored leaf move is valid");
    let child = board.play_move(mv).expect("a stored leaf move is legal");
    Canonical::of(&child).key
}
