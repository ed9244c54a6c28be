//! The score of the game after every ply, in black's view: what the evaluation graph draws.

use super::report::{Discs, MoveReview, ScorePoint, ScoreSource};
use crate::board::Color;

/// Black's view of `score` for `side`.
fn for_black(side: Color, score: Discs) -> Discs {
    match side {
        Color::Black => score,
        Color::White => Discs(-score.0),
    }
}

/// One point per reviewed ply, in order. A pass with no scored ply before or after it (a
/// game of passes only cannot be reviewed) gets no point.
#[must_use]
pub fn series(rows: &[MoveReview]) -> Vec<ScorePoint> {
    let mut out: Vec<ScorePoint> = Vec::with_capacity(rows.len());
    for (i, r) in rows.iter().enumerate() {
        let point = match &r.verdict {
            Some(v) => Some((for_black(r.side, v.played), v.kind, v.mark)),
            // A pass leaves the position as it was, the other side to move: its value is the
            // best the next ply can do.
            None => rows
                .get(i + 1)
                .and_then(|next| {
                    let v = next.verdict.as_ref()?;
                    Some((for_black(next.side, v.best), v.kind, None))
                })
                .or_else(|| {
                    out.last().map(|p| {
                        let kind = if p.exact {
                            ScoreSource::Exact
                        } else {
                            ScoreSource::Midgame
                        };
                        (p.black, kind, None)
                    })
                }),
        };
        if let Some((black, kind, mark)) = point {
            out.push(ScorePoint {
                ply: r.ply,
                black,
                exact: kind == ScoreSource::Exact,
                mark,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;
    use crate::review::{Mark, Verdict};

    fn row(ply: usize, side: Color, played: i32, best: i32, mark: Option<Mark>) -> MoveReview {
        MoveReview {
            ply,
            side,
            mv: Move::Pass,
            empties: 60 - ply as u32,
            verdict: Some(Verdict {
                played: Discs(played),
                best_move: Move::Pass,
                best: Discs(best),
                loss: Discs(best - played),
                kind: ScoreSource::Midgame,
                depth: 4,
                mark,
            }),
            book: None,
        }
    }

    fn pass(ply: usize, side: Color) -> MoveReview {
        MoveReview {
            verdict: None,
            ..row(ply, side, 0, 0, None)
        }
    }

    #[test]
    fn scores_turn_to_blacks_view_and_keep_the_marks() {
        let rows = [
            row(1, Color::Black, 100, 100, None),
            row(2, Color::White, 300, 1200, Some(Mark::Blunder)),
            row(3, Color::Black, -250, -250, None),
        ];
        let s = series(&rows);
        assert_eq!(s.len(), 3);
        assert_eq!(
            s.iter().map(|p| p.black.0).collect::<Vec<_>>(),
            [100, -300, -250]
        );
        assert_eq!(s[1].mark, Some(Mark::Blunder));
        assert_eq!(s.iter().filter(|p| p.mark.is_some()).count(), 1);
        assert!(s.iter().all(|p| !p.exact));
    }

    #[test]
    fn a_pass_takes_the_value_of_the_position_it_leaves() {
        // White passes at ply 2; black's best at ply 3 is +5 discs: after the pass black
        // stands at +5.
        let rows = [
            row(1, Color::Black, 200, 200, None),
            pass(2, Color::White),
            row(3, Color::Black, 300, 500, Some(Mark::Inaccuracy)),
            pass(4, Color::White),
        ];
        let s = series(&rows);
        assert_eq!(
            s.iter().map(|p| (p.ply, p.black.0)).collect::<Vec<_>>(),
            [(1, 200), (2, 500), (3, 300), (4, 300)]
        );
        assert_eq!(s[1].mark, None);
    }
}
