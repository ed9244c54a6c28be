//! Othello as a [`Game`]: black is player 0, a pass is an action when the side to move has no
//! move, and two heuristics, the disc count and the engine's hand-made evaluation.

use super::{Game, Heuristic};
use crate::board::{Color, Move, Position};
use crate::engine::{Evaluator, HandEval, SCALE};
use crate::rng::Rng;

/// What a win is worth beyond its disc margin: any won game outranks any estimate (both
/// heuristics stay within ±64 discs).
pub const WIN: f64 = 100.0;

/// Othello from the standard start.
#[derive(Clone, Copy, Debug, Default)]
pub struct Othello;

/// Player number of `c` (black 0, white 1).
#[must_use]
pub fn seat(c: Color) -> usize {
    usize::from(c == Color::White)
}

impl Game for Othello {
    type State = Position;
    type Action = Move;

    fn players(&self) -> usize {
        2
    }
    fn initial(&self) -> Position {
        Position::START
    }
    fn to_move(&self, s: &Position) -> usize {
        seat(s.side)
    }
    fn actions(&self, s: &Position) -> Vec<Move> {
        let moves = s.board.legal_moves();
        if !moves.is_empty() {
            moves.iter().map(Move::Play).collect()
        } else if s.board.pass().has_moves() {
            vec![Move::Pass]
        } else {
            Vec::new()
        }
    }
    fn apply(&self, s: &Position, a: Move) -> Position {
        let board = match a {
            Move::Play(sq) => s.board.play_flips(sq, s.board.flips(sq)),
            Move::Pass => s.board.pass(),
        };
        Position {
            board,
            side: s.side.opposite(),
        }
    }
    fn is_terminal(&self, s: &Position) -> bool {
        s.board.is_game_over()
    }
    fn utilities(&self, s: &Position) -> Vec<f64> {
        vec![self.utility(s, 0), self.utility(s, 1)]
    }
    /// The final disc margin (empties to the winner), plus [`WIN`] for a win.
    fn utility(&self, s: &Position, player: usize) -> f64 {
        let d = f64::from(s.final_score_black());
        let d = if player == 0 { d } else { -d };
        d + d.signum() * WIN
    }
    fn value_bounds(&self) -> (f64, f64) {
        (-(WIN + 64.0), WIN + 64.0)
    }
    fn default_depth(&self) -> u32 {
        4
    }
    fn random_action(&self, s: &Position, rng: &mut Rng) -> Move {
        let moves = s.board.legal_moves();
        match moves.iter().nth(rng.below(moves.count().max(1) as usize)) {
            Some(sq) => Move::Play(sq),
            None => Move::Pass,
        }
    }
    fn random_playout(&self, s: &Position, rng: &mut Rng) -> Position {
        // One move generation per ply: the side to move's moves, or the pass test.
        let mut p = *s;
        loop {
            let moves = p.board.legal_moves();
            if let Some(sq) = moves.iter().nth(rng.below(moves.count().max(1) as usize)) {
                p = Position {
                    board: p.board.play_flips(sq, p.board.flips(sq)),
                    side: p.side.opposite(),
                };
            } else if p.board.pass().has_moves() {
                p = Position {
                    board: p.board.pass(),
                    side: p.side.opposite(),
                };
            } else {
                return p;
            }
        }
    }

    fn render(&self, s: &Position) -> String {
        format!("{}\n", s.diagram())
    }
    fn player_name(&self, player: usize) -> String {
        if player == 0 { "black" } else { "white" }.into()
    }
}

/// `player`'s sign relative to the side to move of `s`.
fn sign(s: &Position, player: usize) -> f64 {
    if seat(s.side) == player {
        1.0
    } else {
        -1.0
    }
}

/// Discs of the player minus the opponent's (the classic players' evaluation).
#[derive(Clone, Copy, Debug, Default)]
pub struct Discs;

impl Heuristic<Othello> for Discs {
    fn eval(&self, _: &Othello, s: &Position, player: usize) -> f64 {
        sign(s, player) * f64::from(s.board.disc_diff())
    }
}

/// The engine's hand-made evaluation (mobility, corners, X/C squares, stability, parity), in
/// discs: `better`'s heuristic.
#[derive(Clone, Debug, Default)]
pub struct Hand(pub HandEval);

impl Heuristic<Othello> for Hand {
    fn eval(&self, _: &Othello, s: &Position, player: usize) -> f64 {
        let b = s.board;
        // A side that must pass is scored from the opponent's point of view, who moves next.
        let (mover_sign, p, o) = if b.has_moves() {
            (1.0, b.player().0, b.opponent().0)
        } else {
            (-1.0, b.opponent().0, b.player().0)
        };
        let v = f64::from(self.0.eval(p, o)) / f64::from(SCALE);
        sign(s, player) * mover_sign * v
    }
}
