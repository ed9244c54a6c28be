//! Replays a parsed game move by move on the bitboard, inferring the passes a record leaves
//! out, and checks the recorded colours and result against the board.

use super::raw::{RawGame, RawIssue, RawMove};
use super::record::{GameRecord, GameResult, SourceRef};
use super::summary::{SkipReason, WarnReason};
use crate::board::{Color, Move, MoveError, Position};
use std::sync::Arc;

/// Why a move could not be replayed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Failure {
    Illegal(MoveError),
    WrongColor { to_move: Color },
}

/// A failed replay: the input index of the move, its ply (passes counted) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ReplayFailure {
    pub index: usize,
    pub ply: usize,
    pub mv: Move,
    pub failure: Failure,
}

/// Plays `moves` from `start` with the same semantics as [`Position::replay`] (an implied
/// pass before a move when the side to move has none), and also checks recorded colours.
/// Returns every move played, passes included, and the final position.
pub(crate) fn replay_moves(
    start: Position,
    moves: &[RawMove],
) -> Result<(Vec<Move>, Position), ReplayFailure> {
    let mut board = start.board;
    let mut side = start.side;
    let mut played = Vec::with_capacity(moves.len() + 2);
    for (index, rm) in moves.iter().enumerate() {
        // Fast path: a move by the right side that flips something is legal, and the side
        // then has a move, so no pass can be implied before it. One flip computation per ply.
        if let Move::Play(sq) = rm.mv {
            if rm.color.is_none_or(|c| c == side) {
                let f = board.flips(sq);
                if !f.is_empty() {
                    board = board.play_flips(sq, f);
                    side = side.opposite();
                    played.push(rm.mv);
                    continue;
                }
            }
        }
        let mut legal = board.legal_moves();
        if let Move::Play(_) = rm.mv {
            if legal.is_empty() {
                let passed = board.pass();
                let theirs = passed.legal_moves();
                if !theirs.is_empty() {
                    played.push(Move::Pass);
                    board = passed;
                    side = side.opposite();
                    legal = theirs;
                }
            }
        }
        let fail = |failure| ReplayFailure {
            index,
            ply: played.len() + 1,
            mv: rm.mv,
            failure,
        };
        if let Some(c) = rm.color {
            if c != side {
                return Err(fail(Failure::WrongColor { to_move: side }));
            }
        }
        match rm.mv {
            Move::Play(sq) => {
                if !legal.contains(sq) {
                    let err = if board.empties().contains(sq) {
                        MoveError::NoFlips(sq)
                    } else {
                        MoveError::Occupied(sq)
                    };
                    return Err(fail(Failure::Illegal(err)));
                }
                board = board.play_flips(sq, board.flips(sq));
            }
            Move::Pass => {
                if !legal.is_empty() {
                    return Err(fail(Failure::Illegal(MoveError::PassNotAllowed)));
                }
                if !board.pass().has_moves() {
                    return Err(fail(Failure::Illegal(MoveError::GameOver)));
                }
                board = board.pass();
            }
        }
        side = side.opposite();
        played.push(rm.mv);
    }
    Ok((played, Position { board, side }))
}

/// A replayed game, or why it was rejected, or a warning about a kept game.
pub(crate) enum Checked {
    Game(GameRecord, Option<(WarnReason, String)>),
    Bad(RawIssue),
}

/// Replays `raw` and builds the [`GameRecord`], normalising the result.
pub(crate) fn check(raw: RawGame, file: &Arc<str>) -> Checked {
    let (moves, end) = match replay_moves(raw.start, &raw.moves) {
        Ok(ok) => ok,
        Err(e) => {
            let (reason, detail) = match e.failure {
                Failure::Illegal(m) => (SkipReason::IllegalMove, format!("illegal: {m}")),
                Failure::WrongColor { to_move } => (
                    SkipReason::WrongColor,
                    format!("recorded as played by {}, but {to_move} is to move", {
                        to_move.opposite()
                    }),
                ),
            };
            return Checked::Bad(RawIssue {
                reason,
                location: raw.location,
                ply: Some(e.ply),
                mv: Some(e.mv.to_string()),
                detail,
            });
        }
    };
    let complete = end.board.is_game_over();
    let mut warning = None;
    let result = raw.result.map(|r| {
        let mut disc_diff = r.disc_diff;
        if complete {
            let board_score = end.final_score_black();
            if r.winner_only {
                if board_score.signum() == r.disc_diff.signum() {
                    disc_diff = board_score;
                } else {
                    warning = Some(mismatch(&r.raw, board_score));
                }
            } else if r.disc_diff != board_score {
                // A source that counts discs without giving the empties to the winner agrees
                // with the board once they are given; anything else is a real disagreement.
                if r.disc_diff == end.disc_diff_black() {
                    disc_diff = board_score;
                } else {
                    warning = Some(mismatch(&r.raw, board_score));
                }
            }
        }
        GameResult {
            disc_diff,
            raw: r.raw,
        }
    });
    Checked::Game(
        GameRecord {
            start: raw.start,
            moves,
            result,
            black: raw.black,
            white: raw.white,
            event: raw.event,
            place: raw.place,
            date: raw.date,
            year: raw.year,
            source: SourceRef {
                file: file.clone(),
                location: raw.location,
            },
            complete,
        },
        warning,
    )
}

fn mismatch(raw: &str, board_score: i32) -> (WarnReason, String) {
    (
        WarnReason::ScoreMismatch,
        format!("recorded result {raw:?}, final board gives {board_score:+} (black minus white); the record's value is kept"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;
    use proptest::prelude::*;

    fn raw(moves: &[Move]) -> Vec<RawMove> {
        moves.iter().map(|m| RawMove::new(*m)).collect()
    }

    proptest! {
        // The fast replay must agree with `Position::replay` on random (mostly legal) lines,
        // passes left out or written.
        #[test]
        fn agrees_with_position_replay(choices in proptest::collection::vec(0u8..64, 0..70), drop_passes: bool, junk in 0usize..80) {
            let mut pos = Position::START;
            let mut line = Vec::new();
            for c in choices {
                if pos.board.is_game_over() { break; }
                if pos.board.must_pass() {
                    if !drop_passes { line.push(Move::Pass); }
                    pos = pos.play(Move::Pass).unwrap();
                    continue;
                }
                let legal: Vec<Square> = pos.board.legal_moves().iter().collect();
                let sq = legal[c as usize % legal.len()];
                line.push(Move::Play(sq));
                pos = pos.play(Move::Play(sq)).unwrap();
            }
            // Sometimes spoil one move to compare the errors too.
            if junk < line.len() {
                line[junk] = Move::Play(Square::ALL[(junk * 7) % 64]);
            }
            let ours = replay_moves(Position::START, &raw(&line));
            let theirs = Position::START.replay(line.iter().copied());
            match (ours, theirs) {
                (Ok((m, end)), Ok(r)) => { prop_assert_eq!(m, r.moves); prop_assert_eq!(end, r.end); }
                (Err(a), Err(b)) => {
                    prop_assert_eq!(a.ply, b.ply);
                    prop_assert_eq!(a.index, b.index);
                    prop_assert_eq!(a.failure, Failure::Illegal(b.reason));
                }
                (a, b) => prop_assert!(false, "ours {:?} theirs {:?}", a.is_ok(), b.is_ok()),
            }
        }
    }

    #[test]
    fn wrong_colour_is_reported() {
        let moves = vec![
            RawMove {
                mv: Move::Play(Square::F5),
                color: Some(Color::Black),
            },
            RawMove {
                mv: Move::Play(Square::F6),
                color: Some(Color::Black),
            },
        ];
        let e = replay_moves(Position::START, &moves).unwrap_err();
        assert_eq!(e.ply, 2);
        assert_eq!(
            e.failure,
            Failure::WrongColor {
                to_move: Color::White
            }
        );
    }
}
