//! Training labels from an evaluated book's leaves: the positions whose value is one search
//! of all their moves (every legal move leaves the book), each with its stored score, the
//! search's depth and whether it is an exact solve. A book evaluated deeply (the default
//! book's leaves are searched 18 plies deep) holds labels deeper than `train label` makes at
//! a training run's cost.
//!
//! Positions with a move into the book are left out: their leaf scores only the moves that
//! leave the book and their value is negamaxed through the children, so neither is one
//! search of the position. So are leaves that carry no search (game over, a value imported
//! without its move), win/draw/loss-only scores and positions where the side to move must
//! pass (a label's position has a move).

use super::label::{LabelError, Labelled, HEADER};
use crate::book::{board_of, BookData, EvalInfo, Graph, Leaf, Score, ValueKind};
use std::fmt::Write as _;
use std::path::Path;

/// One leaf as a label, with the search that valued it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LeafLabel {
    /// The position (canonical board) and its leaf score in discs.
    pub label: Labelled,
    /// Search depth in plies; for an exact solve, the position's empties.
    pub depth: u8,
    /// The score is an exact solve.
    pub exact: bool,
}

/// The leaves of a book as labels, and what was left out.
#[derive(Clone, Debug, PartialEq)]
pub struct BookLabels {
    /// In the book's position-table order (a hash order: held-out lines of `train
    /// --labels`, every n-th, are a sample across depths and lines).
    pub labels: Vec<LeafLabel>,
    /// How the book's leaves were searched (the midgame leaves' selectivity).
    pub evaluation: EvalInfo,
    /// Positions with a move into the book (valued through their children).
    pub interior: usize,
    /// Positions with no child whose leaf is not a label: not searched, game over, imported
    /// without its move, win/draw/loss only, or the side to move must pass.
    pub other: usize,
}

/// The labels of `data`'s leaves; `path` names the book in the error when it has no values.
pub fn book_labels(data: &BookData, path: &Path) -> Result<BookLabels, LabelError> {
    let Some(evaluation) = data.info.evaluation.clone() else {
        return Err(LabelError::Options(format!(
            "{} has no values: evaluate it first (`othbook book evaluate`)",
            path.display()
        )));
    };
    let graph = Graph::of(data);
    let mut out = BookLabels {
        labels: Vec::new(),
        evaluation,
        interior: 0,
        other: 0,
    };
    for (p, node) in data.positions.iter().zip(&graph.nodes) {
        if !node.children.is_empty() {
            out.interior += 1;
            continue;
        }
        let board = board_of(p.key);
        let searched = match p.eval.leaf {
            Leaf::Move { score, .. } if board.has_moves() => label_of(score),
            _ => None,
        };
        match searched {
            Some((value, exact)) => out.labels.push(LeafLabel {
                label: Labelled { board, value },
                depth: p.eval.leaf.score().map_or(0, |s| s.depth),
                exact,
            }),
            None => out.other += 1,
        }
    }
    Ok(out)
}

/// A leaf score as a label value in discs and whether it is exact; `None` for a
/// win/draw/loss score (only its sign is known).
fn label_of(score: Score) -> Option<(f32, bool)> {
    match score.kind {
        ValueKind::Midgame => Some((score.discs() as f32, false)),
        ValueKind::Exact => Some((score.discs() as f32, true)),
        ValueKind::Wld => None,
    }
}

/// The labels file of `labels` (read by `train --labels`): each line ends with a comment
/// naming its search, `# depth 18, 73%` or `# exact, 22 empties`.
#[must_use]
pub fn to_text(labels: &BookLabels, book: &Path) -> String {
    let mut s = String::with_capacity(60 * labels.labels.len() + 256);
    s.push_str(HEADER);
    let _ = write!(
        s,
        "\n# leaves of {} (evaluated at {})\n# player opponent value (discs, side to \
         move) # the leaf's search\n",
        book.display(),
        labels.evaluation
    );
    let selectivity = crate::book::selectivity_words(labels.evaluation.selectivity);
    for l in &labels.labels {
        let b = &l.label.board;
        let _ = write!(
            s,
            "{:016x} {:016x} {:.2} # ",
            b.player().0,
            b.opponent().0,
            l.label.value
        );
        let _ = if l.exact {
            writeln!(s, "exact, {} empties", l.depth)
        } else {
            writeln!(s, "depth {}, {selectivity}", l.depth)
        };
    }
    s
}

/// Writes the labels file of `labels` atomically.
pub fn save(path: &Path, labels: &BookLabels, book: &Path) -> Result<(), LabelError> {
    super::label::save_text(path, &to_text(labels, book))
}
