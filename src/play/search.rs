//! The classic players on Othello: the teaching players of [`crate::teach`] (random, simple,
//! minimax, alpha-beta, expectimax, max-n, paranoid, MCTS) seen as match [`Player`]s.

use crate::play::{Budget, Choice, GameState, Player, PlayerError};
use crate::teach::othello::Othello;
use crate::teach::Agent;
use std::time::Instant;

/// A teaching player playing Othello; the clock's budget, when there is one, caps the
/// player's own time limit.
pub struct ClassicPlayer {
    agent: Box<dyn Agent<Othello>>,
    name: String,
}

impl ClassicPlayer {
    /// `agent` under the name `name` (Othello calls the greedy player `simple`).
    #[must_use]
    pub fn new(agent: Box<dyn Agent<Othello>>, name: String) -> Self {
        ClassicPlayer { agent, name }
    }
}

impl Player for ClassicPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, game: &GameState, budget: Budget) -> Result<Choice, PlayerError> {
        let deadline = budget.deadline(Instant::now());
        let d = self.agent.choose(&Othello, &game.position, deadline);
        Ok(Choice {
            mv: d.action,
            nodes: d.nodes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Move, Position, Square};
    use crate::rng::Rng;
    use crate::teach::othello::Discs;
    use crate::teach::spec::AgentSpec;

    /// The move of the teaching player `spec` (Othello's `simple` is the greedy player).
    fn choose(spec: &str, g: &GameState) -> Choice {
        let agent = spec
            .replace("simple", "greedy")
            .parse::<AgentSpec>()
            .unwrap();
        let mut p = ClassicPlayer::new(agent.build(Discs, Rng::fresh_seed()), spec.to_string());
        p.choose(g, Budget::UNLIMITED).unwrap()
    }

    #[test]
    fn simple_player_takes_the_most_discs() {
        let mut g = GameState::new(Position::START);
        for m in crate::board::parse_moves("f5d6c3d3c4").unwrap() {
            g.play(m).unwrap();
        }
        let c = choose("simple", &g);
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
        let a: Vec<Move> = (0..5).map(|_| choose("random:seed=3", &g).mv).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert!(g
            .position
            .board
            .legal_moves()
            .contains(a[0].square().unwrap()));
    }

    #[test]
    fn mcts_plays_the_only_move_and_counts_playouts() {
        // Black to move has a single legal move, a1.
        let pos: Position = "-OOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOX X"
            .parse()
            .unwrap();
        let c = choose("mcts:playouts=500,seed=1", &GameState::new(pos));
        assert_eq!(c.mv, Move::Play(Square::A1));
        let c = choose("mcts:playouts=500,seed=1", &GameState::new(Position::START));
        assert!(Position::START
            .board
            .legal_moves()
            .contains(c.mv.square().unwrap()));
        assert_eq!(c.nodes, 500);
    }

    #[test]
    fn search_players_answer_legally_within_their_time() {
        let g = GameState::new(Position::START);
        for spec in [
            "minimax:time=0.05",
            "alphabeta:time=0.05",
            "expectimax:time=0.05",
        ] {
            // Searched to the end, the game would take ages: the limit stopped the search. How
            // soon after 0.05 s depends on the machine's load, so only a hang is checked.
            let t = Instant::now();
            let c = choose(spec, &g);
            assert!(t.elapsed().as_secs_f64() < 120.0, "{spec}");
            assert!(Position::START
                .board
                .legal_moves()
                .contains(c.mv.square().unwrap()));
            assert!(c.nodes > 0);
        }
    }
}
