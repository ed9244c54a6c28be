//! The Multi-ProbCut test both drivers run (the fits and levels are in
//! [`crate::engine::selectivity`]): a shallow null-window search at the bound a deep result would
//! need, with the selectivity's margin, settles a null-window node without its full search.

use super::threads::Worker;
use crate::engine::selectivity::{Fit, Selectivity};
use crate::engine::{Evaluator, SCALE};

impl<E: Evaluator> Worker<'_, E> {
    /// The cut for the null window (`beta - 1`, `beta`) in `unit`s of SCALE (1 for midgame
    /// scores, SCALE for exact ones), trying the side the static evaluation leans to
    /// (`lean_high`: at or above `beta`). `shallow(w, lo, hi)` is the predicting search; it
    /// runs without ProbCut, as in calibration. The node's fail-soft bound when it cuts.
    #[inline]
    pub(super) fn probcut(
        &mut self,
        fit: Fit,
        beta: i32,
        unit: i32,
        lean_high: bool,
        mut shallow: impl FnMut(&mut Self, i32, i32) -> i32,
    ) -> Option<i32> {
        if !fit.cuts() {
            return None;
        }
        let margin = self.selectivity.t() * fit.sigma;
        let limit = f64::from(64 * SCALE);
        let saved = std::mem::replace(&mut self.selectivity, Selectivity::EXACT);
        let out = if lean_high {
            // Cut high when a·v' + b ≥ beta + margin.
            let bound = ((f64::from(beta * unit) + margin - fit.b) / fit.a).ceil();
            (bound < limit && bound > -limit)
                .then(|| shallow(self, bound as i32 - 1, bound as i32) >= bound as i32)
                .and_then(|cut| cut.then_some(beta))
        } else {
            let alpha = beta - 1;
            let bound = ((f64::from(alpha * unit) - margin - fit.b) / fit.a).floor();
            (bound > -limit && bound < limit)
                .then(|| shallow(self, bound as i32, bound as i32 + 1) <= bound as i32)
                .and_then(|cut| cut.then_some(alpha))
        };
        self.selectivity = saved;
        if self.aborted {
            return Some(0);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::engine::eval::HandEval;
    use crate::engine::search::root::{RootMove, RootSearch};
    use crate::engine::search::threads::{Busy, Control, Shared};
    use crate::engine::tt::{Bound, Kind, TranspositionTable};
    use crate::engine::INF;
    use std::sync::atomic::AtomicU64;

    fn board_at(empties: u32) -> Board {
        let mut b = Board::START;
        while b.empty_count() > empties {
            b = match b
                .legal_moves()
                .iter()
                .nth(1)
                .or(b.legal_moves().iter().next())
            {
                Some(sq) => b.play(sq).expect("legal"),
                None => b.pass(),
            };
        }
        assert!(b.has_moves());
        b
    }

    fn with_worker<R>(
        tt: &TranspositionTable,
        f: impl FnOnce(&mut Worker<'_, HandEval>) -> R,
    ) -> R {
        let eval = HandEval::default();
        let busy = Busy::new();
        let nodes = AtomicU64::new(0);
        let shared = Shared::new(&eval, tt, &busy, Control::single(&nodes));
        let mut w = Worker::new(&shared, true);
        f(&mut w)
    }

    /// Wrong entries stored at a selective level, for the board and all its children: a search
    /// that trusted them would return something else.
    fn poison(tt: &TranspositionTable, b: Board, kind: Kind, depth: u8, score: i32) {
        tt.store(
            b.player().0,
            b.opponent().0,
            depth,
            kind,
            Bound::Exact,
            score,
            None,
            Selectivity::LOWEST,
        );
        for sq in b.legal_moves().iter() {
            let c = b.play(sq).expect("legal");
            let (p, o) = (c.player().0, c.opponent().0);
            tt.store(
                p,
                o,
                depth,
                kind,
                Bound::Exact,
                -score,
                None,
                Selectivity::LOWEST,
            );
        }
    }

    #[test]
    fn selective_entries_never_settle_an_exact_solve() {
        let b = board_at(16);
        let exact = with_worker(&TranspositionTable::new(4), |w| w.solve(b, -64, 64));
        let tt = TranspositionTable::new(4);
        poison(&tt, b, Kind::Endgame, 16, exact + 20);
        for sq in b.legal_moves().iter() {
            let c = b.play(sq).expect("legal");
            poison(&tt, c, Kind::Endgame, 15, -(exact + 20));
        }
        let trusted = with_worker(&tt, |w| {
            w.selectivity = Selectivity::LOWEST;
            w.solve(b, -64, 64)
        });
        assert_eq!(
            trusted,
            exact + 20,
            "the poisoned entry is taken at its own level"
        );
        let solved = with_worker(&tt, |w| w.solve(b, -64, 64));
        assert_eq!(solved, exact, "an exact solve took a selective entry");
    }

    #[test]
    fn selective_entries_never_settle_a_surer_midgame_search() {
        let b = board_at(40);
        let depth = 6;
        let sure = with_worker(&TranspositionTable::new(4), |w| w.pvs(b, depth, -INF, INF));
        let tt = TranspositionTable::new(4);
        poison(&tt, b, Kind::Midgame, 20, sure + 2000);
        assert_eq!(
            with_worker(&tt, |w| w.pvs(b, depth, -INF, INF)),
            sure,
            "an exact midgame search took a selective entry"
        );
    }

    /// ProbCut may misjudge a node, but the levels driver always ends with an exact solve: the
    /// root score is the exact one whatever the lower levels said.
    #[test]
    fn solve_by_levels_ends_exact() {
        for empties in [18, 20] {
            let b = board_at(empties);
            let exact = with_worker(&TranspositionTable::new(8), |w| w.solve(b, -64, 64));
            let tt = TranspositionTable::new(8);
            let mut moves: Vec<RootMove> = b
                .legal_moves()
                .iter()
                .map(|sq| RootMove {
                    sq,
                    child: b.play(sq).expect("legal"),
                    score: 0,
                    exact: false,
                })
                .collect();
            let got = with_worker(&tt, |w| {
                RootSearch::new(w).solve_from_level(&mut moves, 0, Some(Selectivity::LOWEST))
            });
            assert_eq!(got, Some(exact), "{empties} empties");
            assert_eq!(moves[0].score, exact);
            let direct = with_worker(&TranspositionTable::new(8), |w| {
                RootSearch::new(w).solve_by_levels(&mut moves, 0, empties)
            });
            assert_eq!(direct, Some(exact), "{empties} empties");
        }
    }
}
