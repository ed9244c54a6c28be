//! The classic players: random, simple (greedy), minimax, alpha-beta and expectimax, all on the
//! simple evaluation (disc difference), as in introductory game-search courses.

use crate::board::{Board, Move};
use crate::play::{Budget, Choice, GameState, Player, PlayerError};
use std::time::Instant;

/// A small seedable generator (xorshift64*): players need cheap, reproducible randomness.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (any value, 0 included).
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15 | 1)
    }

    /// A seed from the clock and a counter, for unseeded players.
    #[must_use]
    pub fn fresh_seed() -> u64 {
        use std::sync::atomic::{AtomicU64, Ordering};
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        t ^ COUNTER.fetch_add(0x2545_F491_4F6C_DD1D, Ordering::Relaxed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A uniform index below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

/// A uniformly random legal move of `board` (which must have one).
pub fn random_move(board: &Board, rng: &mut Rng) -> Move {
    let moves = board.legal_moves();
    match moves.iter().nth(rng.below(moves.count() as usize)) {
        Some(sq) => Move::Play(sq),
        None => Move::Pass,
    }
}

/// Plays uniformly random legal moves.
pub struct RandomPlayer {
    rng: Rng,
}

impl RandomPlayer {
    /// A random player; the same seed gives the same choices.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        RandomPlayer {
            rng: Rng::new(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".into()
    }
    fn choose(&mut self, game: &GameState, _: Budget) -> Result<Choice, PlayerError> {
        Ok(Choice {
            mv: random_move(&game.position.board, &mut self.rng),
            nodes: 0,
        })
    }
}

/// One ply: the move after which it owns the most discs (first such square on ties).
pub struct SimplePlayer;

impl Player for SimplePlayer {
    fn name(&self) -> String {
        "simple".into()
    }
    fn choose(&mut self, game: &GameState, _: Budget) -> Result<Choice, PlayerError> {
        let b = game.position.board;
        let best = b
            .legal_moves()
            .iter()
            .map(|sq| (sq, b.flips(sq).count()))
            .fold(
                None,
                |best: Option<(crate::board::Square, u32)>, (sq, n)| match best {
                    Some((_, bn)) if bn >= n => best,
                    _ => Some((sq, n)),
                },
            );
        let mv = best.map_or(Move::Pass, |(sq, _)| Move::Play(sq));
        Ok(Choice {
            mv,
            nodes: b.legal_moves().count().into(),
        })
    }
}

/// Which tree search a [`SearchPlayer`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Plain minimax: every node expanded.
    Minimax,
    /// Alpha-beta pruning, children in square order.
    AlphaBeta,
    /// Opponent modelled as choosing uniformly at random (the best reply to `random`).
    Expectimax,
}

/// Score of a finished game: large enough to dominate any disc count.
const WIN: f64 = 10_000.0;

/// The simple evaluation: discs of the side to move minus the opponent's; finished games
/// are scored exactly and dominate.
fn evaluate(b: &Board) -> f64 {
    if b.is_game_over() {
        let s = f64::from(b.final_score());
        return s + s.signum() * WIN;
    }
    f64::from(b.disc_diff())
}

/// Thrown (as `Err`) when the deadline passes mid-search.
struct Timeout;

struct Searcher {
    algo: Algorithm,
    deadline: Option<Instant>,
    nodes: u64,
}

impl Searcher {
    fn tick(&mut self) -> Result<(), Timeout> {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    return Err(Timeout);
                }
            }
        }
        Ok(())
    }

    /// Children of `b` (moves, or the pass if there are none; empty when the game is over).
    fn children(b: &Board) -> Vec<Board> {
        let moves = b.legal_moves();
        if moves.is_empty() {
            return if b.pass().has_moves() {
                vec![b.pass()]
            } else {
                vec![]
            };
        }
        moves
            .iter()
            .map(|sq| b.play_flips(sq, b.flips(sq)))
            .collect()
    }

    /// Value of `b` for its side to move, searched `depth` plies.
    fn value(&mut self, b: &Board, depth: u32, mut alpha: f64, beta: f64) -> Result<f64, Timeout> {
        self.tick()?;
        let kids = Self::children(b);
        if depth == 0 || kids.is_empty() {
            return Ok(evaluate(b));
        }
        let mut best = f64::NEG_INFINITY;
        for k in &kids {
            let v = match self.algo {
                Algorithm::Minimax => {
                    -self.value(k, depth - 1, f64::NEG_INFINITY, f64::INFINITY)?
                }
                Algorithm::AlphaBeta => -self.value(k, depth - 1, -beta, -alpha)?,
                Algorithm::Expectimax => -self.chance(k, depth - 1)?,
            };
            best = best.max(v);
            if self.algo == Algorithm::AlphaBeta {
                alpha = alpha.max(v);
                if alpha >= beta {
                    break;
                }
            }
        }
        Ok(best)
    }

    /// Expectimax chance node: `b`'s side to move (the opponent) picks uniformly at random.
    fn chance(&mut self, b: &Board, depth: u32) -> Result<f64, Timeout> {
        self.tick()?;
        let kids = Self::children(b);
        if depth == 0 || kids.is_empty() {
            return Ok(evaluate(b));
        }
        let mut sum = 0.0;
        for k in &kids {
            sum += -self.value(k, depth - 1, f64::NEG_INFINITY, f64::INFINITY)?;
        }
        Ok(sum / kids.len() as f64)
    }

    /// Best move at the root with `depth` plies, with its value.
    fn root(&mut self, b: &Board, depth: u32) -> Result<(Move, f64), Timeout> {
        let mut best = (Move::Pass, f64::NEG_INFINITY);
        for sq in b.legal_moves() {
            let child = b.play_flips(sq, b.flips(sq));
            let v = match self.algo {
                Algorithm::Expectimax => -self.chance(&child, depth - 1)?,
                Algorithm::Minimax => {
                    -self.value(&child, depth - 1, f64::NEG_INFINITY, f64::INFINITY)?
                }
                Algorithm::AlphaBeta => {
                    -self.value(&child, depth - 1, f64::NEG_INFINITY, -best.1)?
                }
            };
            if v > best.1 {
                best = (Move::Play(sq), v);
            }
        }
        Ok(best)
    }
}

/// Depth- or time-limited iterative deepening with the simple evaluation.
pub struct SearchPlayer {
    /// Algorithm used.
    pub algo: Algorithm,
    /// Maximum depth (plies); with no time limit this is the fixed depth.
    pub depth: Option<u32>,
    /// Time per move; overrides nothing if the clock's budget is smaller.
    pub time: Option<std::time::Duration>,
}

impl Player for SearchPlayer {
    fn name(&self) -> String {
        let mut s = match self.algo {
            Algorithm::Minimax => "minimax",
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::Expectimax => "expectimax",
        }
        .to_string();
        if let Some(d) = self.depth {
            s.push_str(&format!(":depth={d}"));
        }
        if let Some(t) = self.time {
            s.push_str(&format!(":time={}", t.as_secs_f64()));
        }
        s
    }

    fn choose(&mut self, game: &GameState, budget: Budget) -> Result<Choice, PlayerError> {
        let start = Instant::now();
        let own = self.time;
        let target = match (own, budget.target) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let max_depth = match (self.depth, target) {
            (Some(d), _) => d.max(1),
            (None, Some(_)) => 60,
            (None, None) => 4,
        };
        let b = game.position.board;
        let mut s = Searcher {
            algo: self.algo,
            deadline: target.map(|t| start + t),
            nodes: 0,
        };
        // Depth 1 always completes, so there is always a legal answer.
        let mut best = b.legal_moves().first().map_or(Move::Pass, Move::Play);
        let empties = b.empty_count();
        for depth in 1..=max_depth {
            match s.root(&b, depth) {
                Ok((mv, _)) => best = mv,
                Err(Timeout) => break,
            }
            if depth >= empties {
                break;
            }
        }
        Ok(Choice {
            mv: best,
            nodes: s.nodes,
        })
    }
}

/// Searches `b` to `depth` plies with `algo` and returns (value for the side to move, nodes):
/// exposed so tests can compare the algorithms.
#[must_use]
pub fn search_value(b: &Board, depth: u32, algo: Algorithm) -> (f64, u64) {
    let mut s = Searcher {
        algo,
        deadline: None,
        nodes: 0,
    };
    let v = s
        .value(b, depth, f64::NEG_INFINITY, f64::INFINITY)
        .unwrap_or(0.0);
    (v, s.nodes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    #[test]
    fn alphabeta_equals_minimax_with_fewer_nodes() {
        let mut rng = Rng::new(7);
        let mut b = Board::START;
        let mut pruned = 0;
        for _ in 0..30 {
            for depth in 1..=4 {
                let (vm, nm) = search_value(&b, depth, Algorithm::Minimax);
                let (va, na) = search_value(&b, depth, Algorithm::AlphaBeta);
                assert_eq!(vm, va, "depth {depth} on {b:?}");
                assert!(na <= nm);
                pruned += nm - na;
            }
            if !b.has_moves() {
                break;
            }
            b = b.play(random_move(&b, &mut rng).square().unwrap()).unwrap();
        }
        assert!(pruned > 0);
    }

    #[test]
    fn simple_player_takes_the_most_discs() {
        // After f5 d6, c3 flips 2 discs? The player maximises flips; check against brute force.
        let mut g = GameState::new(Position::START);
        for m in crate::board::parse_moves("f5d6c3d3c4").unwrap() {
            g.play(m).unwrap();
        }
        let c = SimplePlayer.choose(&g, Budget::UNLIMITED).unwrap();
        let b = g.position.board;
        let most = b
            .legal_moves()
            .iter()
            .map(|sq| b.flips(sq).count())
            .max()
            .unwrap();
        assert_eq!(b.flips(c.mv.square().unwrap()).count(), most);
    }

    #[test]
    fn random_player_is_reproducible_and_legal() {
        let g = GameState::new(Position::START);
        let a: Vec<Move> = (0..5)
            .map(|_| {
                RandomPlayer::new(3)
                    .choose(&g, Budget::UNLIMITED)
                    .unwrap()
                    .mv
            })
            .collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert!(g
            .position
            .board
            .legal_moves()
            .contains(a[0].square().unwrap()));
    }
}
