//! Monte-Carlo tree search with UCB1 selection and uniformly random playouts (anytime).

use crate::board::{Bitboard, Board, Move};
use crate::play::search::{random_move, Rng};
use crate::play::{Budget, Choice, GameState, Player, PlayerError};
use std::time::{Duration, Instant};

struct Node {
    board: Board,
    mv: Move,
    parent: u32,
    children: Vec<u32>,
    /// Moves not yet expanded (a pass is represented by `pass_pending`).
    untried: Bitboard,
    pass_pending: bool,
    visits: u32,
    /// Sum of rewards for the player who moved into this node.
    reward: f64,
}

impl Node {
    fn new(board: Board, mv: Move, parent: u32) -> Node {
        let untried = board.legal_moves();
        let pass_pending = untried.is_empty() && board.pass().has_moves();
        Node {
            board,
            mv,
            parent,
            children: Vec::new(),
            untried,
            pass_pending,
            visits: 0,
            reward: 0.0,
        }
    }
    fn expandable(&self) -> bool {
        !self.untried.is_empty() || self.pass_pending
    }
}

/// MCTS player: `mcts:time=1`, `mcts:playouts=5000`, `mcts:c=1.41`, `mcts:seed=3`.
pub struct MctsPlayer {
    /// Exploration constant of UCB1 (√2 by default).
    pub exploration: f64,
    /// Time per move (anytime limit).
    pub time: Option<Duration>,
    /// Playouts per move.
    pub playouts: Option<u64>,
    rng: Rng,
}

impl MctsPlayer {
    /// A player with the given limits; with none, the clock's budget or 2000 playouts.
    #[must_use]
    pub fn new(exploration: f64, time: Option<Duration>, playouts: Option<u64>, seed: u64) -> Self {
        MctsPlayer {
            exploration,
            time,
            playouts,
            rng: Rng::new(seed),
        }
    }

    /// Runs the search from `root` and returns the most visited move and the playout count.
    pub fn search(
        &mut self,
        root: &Board,
        deadline: Option<Instant>,
        max_playouts: u64,
    ) -> (Move, u64) {
        let mut tree = vec![Node::new(*root, Move::Pass, u32::MAX)];
        let mut playouts = 0u64;
        while playouts < max_playouts {
            if playouts & 63 == 0 {
                if let Some(d) = deadline {
                    if Instant::now() >= d && playouts > 0 {
                        break;
                    }
                }
            }
            // Selection.
            let mut n = 0usize;
            while !tree[n].expandable() && !tree[n].children.is_empty() {
                let ln = f64::from(tree[n].visits).ln();
                let c = self.exploration;
                n = *tree[n]
                    .children
                    .iter()
                    .max_by(|&&a, &&b| {
                        let ucb = |i: u32| {
                            let ch = &tree[i as usize];
                            let v = f64::from(ch.visits);
                            ch.reward / v + c * (ln / v).sqrt()
                        };
                        ucb(a).total_cmp(&ucb(b))
                    })
                    .unwrap_or(&0) as usize;
            }
            // Expansion.
            if tree[n].expandable() {
                let node = &mut tree[n];
                let (mv, child) = if node.pass_pending {
                    node.pass_pending = false;
                    (Move::Pass, node.board.pass())
                } else {
                    let k = self.rng.below(node.untried.count() as usize);
                    let sq = node
                        .untried
                        .iter()
                        .nth(k)
                        .unwrap_or(crate::board::Square::A1);
                    node.untried = node.untried.without(sq);
                    (
                        Move::Play(sq),
                        node.board.play_flips(sq, node.board.flips(sq)),
                    )
                };
                let id = tree.len() as u32;
                tree.push(Node::new(child, mv, n as u32));
                tree[n].children.push(id);
                n = id as usize;
            }
            // Simulation: reward for the player who moved into node n.
            let mut b = tree[n].board;
            let mut flips = 0u32;
            loop {
                if b.has_moves() {
                    let mv = random_move(&b, &mut self.rng);
                    b = b.play_move(mv).unwrap_or(b);
                } else if b.pass().has_moves() {
                    b = b.pass();
                } else {
                    break;
                }
                flips ^= 1;
            }
            // `b`'s side to move is node n's side to move when `flips` is even.
            let score_for_n_side = if flips == 0 {
                b.final_score()
            } else {
                -b.final_score()
            };
            let mut reward = match score_for_n_side {
                s if s < 0 => 1.0,
                0 => 0.5,
                _ => 0.0,
            };
            // Backpropagation, switching point of view at every level.
            let mut i = n;
            loop {
                tree[i].visits += 1;
                tree[i].reward += reward;
                reward = 1.0 - reward;
                match tree[i].parent {
                    u32::MAX => break,
                    p => i = p as usize,
                }
            }
            playouts += 1;
        }
        let best = tree[0]
            .children
            .iter()
            .max_by_key(|&&c| tree[c as usize].visits)
            .map_or_else(
                || root.legal_moves().first().map_or(Move::Pass, Move::Play),
                |&c| tree[c as usize].mv,
            );
        (best, playouts)
    }
}

impl Player for MctsPlayer {
    fn name(&self) -> String {
        match (self.time, self.playouts) {
            (Some(t), _) => format!("mcts:time={}", t.as_secs_f64()),
            (None, Some(p)) => format!("mcts:playouts={p}"),
            (None, None) => "mcts".into(),
        }
    }

    fn choose(&mut self, game: &GameState, budget: Budget) -> Result<Choice, PlayerError> {
        let start = Instant::now();
        let own = self.time;
        let target = match (own, budget.target) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let max = match (self.playouts, target) {
            (Some(p), _) => p.max(1),
            (None, Some(_)) => u64::MAX,
            (None, None) => 2000,
        };
        let (mv, n) = self.search(&game.position.board, target.map(|t| start + t), max);
        Ok(Choice { mv, nodes: n })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    #[test]
    fn plays_the_only_move_and_counts_playouts() {
        // Black to move has a single legal move, a1.
        let pos: Position = "-OOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOX X"
            .parse()
            .unwrap();
        let mut p = MctsPlayer::new(std::f64::consts::SQRT_2, None, Some(500), 1);
        let c = p.choose(&GameState::new(pos), Budget::UNLIMITED).unwrap();
        assert_eq!(c.mv, Move::Play(crate::board::Square::A1));
        let g = GameState::new(Position::START);
        let c = p.choose(&g, Budget::UNLIMITED).unwrap();
        assert!(Position::START
            .board
            .legal_moves()
            .contains(c.mv.square().unwrap()));
        assert_eq!(c.nodes, 500);
    }
}
