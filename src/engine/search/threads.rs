//! The threads of one search: [`Shared`] state (table, busy marks, stop flag, clock, node
//! count), one [`Worker`] per thread, and [`Busy`], the marks of the subtrees under way.

use crate::board::Board;
use crate::engine::selectivity::Selectivity;
use crate::engine::tt::TranspositionTable;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Nodes between two looks at the stop flag and the clock.
const POLL_INTERVAL: u64 = 2048;

/// Positions some thread is searching right now (a small lossy hash set): a thread that finds
/// a sibling's subtree taken searches its other moves first. Lossy both ways is fine: a missed
/// mark only costs duplicated work, a stale one only a later visit.
pub(crate) struct Busy {
    slots: Box<[AtomicU64]>,
}

const BUSY_SLOTS: usize = 1 << 14;

impl Busy {
    pub fn new() -> Busy {
        Busy {
            slots: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[key as usize & (BUSY_SLOTS - 1)]
    }

    #[inline]
    pub fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }

    /// Marks `key` busy unless its slot is taken; true when this call marked it.
    #[inline]
    pub fn enter(&self, key: u64) -> bool {
        self.slot(key)
            .compare_exchange(0, key, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
    }

    #[inline]
    pub fn leave(&self, key: u64) {
        let _ = self
            .slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// Gives back a mark taken for a move of a node loop (0: none was taken).
    #[inline]
    pub fn release(&self, mark: u64) {
        if mark != 0 {
            self.leave(mark);
        }
    }
}

/// Non-zero key of a position for [`Busy`].
#[inline]
pub(crate) fn busy_key(board: Board) -> u64 {
    board.hash64() | 1
}

/// State shared by all threads of one search.
pub(crate) struct Shared<'a, E> {
    pub eval: &'a E,
    pub tt: &'a TranspositionTable,
    /// Subtrees under way (only used with several threads).
    pub busy: &'a Busy,
    /// More than one thread searches.
    pub parallel: bool,
    pub stop: AtomicBool,
    /// The caller's flag ([`crate::engine::Engine::analyze_stoppable`]): once set, the search
    /// stops as if the deadline had passed.
    pub cancel: Option<&'a AtomicBool>,
    /// Set by the main thread when it leaves the midgame iterations for the solve: helpers
    /// drop the midgame iteration they are in and join it.
    pub solving: AtomicBool,
    pub deadline: Option<Instant>,
    /// Nodes published by all threads so far (the caller's counter when it watches them,
    /// see [`crate::engine::Engine::analyze_watched`]).
    pub nodes: &'a AtomicU64,
    pub start: Instant,
}

/// Where a search's threads report and what stops them: the parts of [`Shared`] that differ
/// from one search to the next.
#[derive(Clone, Copy)]
pub(crate) struct Control<'a> {
    /// Several threads search.
    pub parallel: bool,
    /// The caller's stop flag.
    pub cancel: Option<&'a AtomicBool>,
    /// When the time is up.
    pub deadline: Option<Instant>,
    /// The node counter all threads publish to.
    pub nodes: &'a AtomicU64,
    /// When the search started.
    pub start: Instant,
}

impl<'a> Control<'a> {
    /// One thread, no deadline, no stop flag, counting into `nodes`, from now.
    pub fn single(nodes: &'a AtomicU64) -> Control<'a> {
        Control {
            parallel: false,
            cancel: None,
            deadline: None,
            nodes,
            start: Instant::now(),
        }
    }
}

impl<'a, E> Shared<'a, E> {
    /// The shared state of a search over `eval`, `tt` and `busy`, not stopped, not solving.
    pub fn new(eval: &'a E, tt: &'a TranspositionTable, busy: &'a Busy, c: Control<'a>) -> Self {
        Shared {
            eval,
            tt,
            busy,
            parallel: c.parallel,
            stop: AtomicBool::new(false),
            cancel: c.cancel,
            solving: AtomicBool::new(false),
            deadline: c.deadline,
            nodes: c.nodes,
            start: c.start,
        }
    }
}

/// One search thread.
pub(crate) struct Worker<'a, E> {
    pub eval: &'a E,
    pub tt: &'a TranspositionTable,
    pub busy: &'a Busy,
    pub parallel: bool,
    pub shared: &'a Shared<'a, E>,
    pub nodes: u64,
    pub published: u64,
    next_poll: u64,
    pub aborted: bool,
    pub main: bool,
    /// A helper in its midgame iterations, which it leaves when the main thread solves.
    pub follows: bool,
    /// ProbCut's level for the search under way: table entries less sure than this settle
    /// nothing, and results are stored at it.
    pub selectivity: Selectivity,
}

impl<'a, E> Worker<'a, E> {
    pub fn new(shared: &'a Shared<'a, E>, main: bool) -> Self {
        Worker {
            eval: shared.eval,
            tt: shared.tt,
            busy: shared.busy,
            parallel: shared.parallel,
            shared,
            nodes: 0,
            published: 0,
            next_poll: POLL_INTERVAL,
            aborted: false,
            main,
            follows: false,
            selectivity: Selectivity::EXACT,
        }
    }

    /// Looks at the stop flag and the clock now and then.
    #[inline]
    pub fn poll(&mut self) {
        if self.nodes < self.next_poll {
            return;
        }
        self.next_poll = self.nodes + POLL_INTERVAL;
        self.publish();
        if self.shared.stop.load(Ordering::Relaxed)
            || (self.follows && self.shared.solving.load(Ordering::Relaxed))
        {
            self.aborted = true;
        } else if self
            .shared
            .cancel
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            // Through `stop`, so that every thread treats it as a time-out.
            self.shared.stop.store(true, Ordering::Relaxed);
            self.aborted = true;
        } else if let Some(d) = self.shared.deadline {
            // Every thread looks at the clock: with more threads than cores the main thread
            // may get too little CPU to see the deadline in time.
            if Instant::now() >= d {
                self.shared.stop.store(true, Ordering::Relaxed);
                self.aborted = true;
            }
        }
    }

    pub fn publish(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.published, Ordering::Relaxed);
        self.published = self.nodes;
    }

    /// Nodes of all threads as far as this one knows (its own unpublished ones included).
    pub fn nodes_so_far(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + self.nodes - self.published
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busy_marks_are_taken_and_released_by_their_owner_only() {
        let busy = Busy::new();
        let a = busy_key(Board::from_bits(1, 2));
        // Same slot, another position.
        let b = a + BUSY_SLOTS as u64 * 2;
        assert!(!busy.is_busy(a));
        assert!(busy.enter(a));
        assert!(busy.is_busy(a));
        assert!(!busy.is_busy(b), "a slot answers only for its own key");
        assert!(!busy.enter(b), "a taken slot is not overwritten");
        busy.leave(b);
        assert!(busy.is_busy(a), "leaving another key keeps the mark");
        busy.leave(a);
        assert!(!busy.is_busy(a));
        assert!(busy.enter(b));
    }
}
