//! Matches and tournaments between teaching players on any game: seats rotate, boards and
//! openings come from a seed, and each player's results, utility, nodes, time and depth per
//! move are summed into typed rows for tables and CSV.
//!
//! Othello matches between any players (external engines, clocks, forfeits, Elo) are
//! `crate::play::arena`'s; this runner stays with the teaching agents on any game.

use super::robots::Robots;
use super::spec::AgentSpec;
use super::tictactoe::{OpenLines, TicTacToe};
use super::{othello, points, robots, Agent, Game, Heuristic};
use crate::rng::Rng;
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// The games the `teach` commands play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Tic-tac-toe.
    TicTacToe,
    /// The warehouse-robot game, two robots.
    Robots,
    /// The warehouse-robot game, three robots.
    Robots3,
    /// Othello.
    Othello,
}

impl GameKind {
    /// Every game.
    pub const ALL: [GameKind; 4] = [
        GameKind::TicTacToe,
        GameKind::Robots,
        GameKind::Robots3,
        GameKind::Othello,
    ];

    /// The name on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::TicTacToe => "tictactoe",
            GameKind::Robots => "robots",
            GameKind::Robots3 => "robots3",
            GameKind::Othello => "othello",
        }
    }

    /// Random plies played before the players take over, by default: Othello's start would
    /// otherwise give deterministic players the same two games over and over.
    #[must_use]
    pub const fn default_opening(self) -> u32 {
        match self {
            GameKind::Othello => 4,
            _ => 0,
        }
    }

    /// Runs `v` on this game with its default heuristic.
    pub fn visit<V: Visit>(self, v: V) -> V::Out {
        match self {
            GameKind::TicTacToe => v.visit(&|_| TicTacToe, OpenLines),
            GameKind::Robots => v.visit(&robots_board(false), robots::Prospects),
            GameKind::Robots3 => v.visit(&robots_board(true), robots::Prospects),
            GameKind::Othello => v.visit(&|_| othello::Othello, othello::Discs),
        }
    }
}

fn robots_board(three: bool) -> impl Fn(u64) -> Robots {
    move |seed| Robots::standard(three, seed)
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A game name that is not one of [`GameKind::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game {0:?} (known: tictactoe, robots, robots3, othello)")]
pub struct UnknownGame(pub String);

impl FromStr for GameKind {
    type Err = UnknownGame;
    fn from_str(s: &str) -> Result<Self, UnknownGame> {
        let s = s.trim().to_ascii_lowercase();
        GameKind::ALL
            .into_iter()
            .find(|g| g.name() == s)
            .ok_or(UnknownGame(s))
    }
}

/// Something to do with a game whatever its type: `make` gives the game for a seed (the
/// robot board's layout), `h` is its heuristic.
pub trait Visit {
    /// The result.
    type Out;
    /// Does it.
    fn visit<G, H>(self, make: &dyn Fn(u64) -> G, h: H) -> Self::Out
    where
        G: Game + 'static,
        H: Heuristic<G> + Clone + 'static;
}

/// How a match is played.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSettings {
    /// Games; seats rotate from one to the next.
    pub games: usize,
    /// Seed of boards, openings and unseeded random players.
    pub seed: u64,
    /// Time per move for every player (replacing depth and playout limits).
    pub time: Option<Duration>,
    /// Random plies before the players take over.
    pub opening: u32,
}

/// What one player spent and earned.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games played.
    pub games: u32,
    /// Games won outright.
    pub wins: u32,
    /// Games shared at the top.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Points: 1 a win, a share of 1 for a draw.
    pub points: f64,
    /// Sum of utilities.
    pub utility: f64,
    /// Actions chosen.
    pub moves: u64,
    /// Nodes (playouts for MCTS).
    pub nodes: u64,
    /// Thinking time.
    pub time: Duration,
    /// The longest time taken over one move.
    pub slowest: Duration,
    /// Sum over moves of the depth completed.
    pub depth: u64,
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        self.games += o.games;
        self.wins += o.wins;
        self.draws += o.draws;
        self.losses += o.losses;
        self.points += o.points;
        self.utility += o.utility;
        self.moves += o.moves;
        self.nodes += o.nodes;
        self.time += o.time;
        self.slowest = self.slowest.max(o.slowest);
        self.depth += o.depth;
    }

    /// Points per game, in percent.
    #[must_use]
    pub fn score(&self) -> f64 {
        100.0 * self.points / f64::from(self.games.max(1))
    }
    /// Mean utility per game.
    #[must_use]
    pub fn mean_utility(&self) -> f64 {
        self.utility / f64::from(self.games.max(1))
    }
    /// Nodes per move.
    #[must_use]
    pub fn nodes_per_move(&self) -> f64 {
        self.nodes as f64 / self.moves.max(1) as f64
    }
    /// Seconds per move.
    #[must_use]
    pub fn secs_per_move(&self) -> f64 {
        self.time.as_secs_f64() / self.moves.max(1) as f64
    }
    /// Mean depth completed per move.
    #[must_use]
    pub fn depth_per_move(&self) -> f64 {
        self.depth as f64 / self.moves.max(1) as f64
    }
}

/// One seat of one finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatResult {
    /// Game number, from 1.
    pub game: usize,
    /// Seed of the board and opening.
    pub board_seed: u64,
    /// The seat (0 moves first).
    pub seat: usize,
    /// Index of the player in the match's list.
    pub player: usize,
    /// The player's figures in this game.
    pub tally: Tally,
}

/// The seed of game `i`'s board and opening: the same for a full rotation of seats, so every
/// player gets every seat on every board.
#[must_use]
pub fn board_seed(seed: u64, i: usize, seats: usize) -> u64 {
    seed.wrapping_add((i / seats) as u64)
}

/// Plays one game from `game`'s start after `opening` random plies drawn with `rng`; returns
/// the final state and each seat's figures. `agents[s]` plays seat `s`.
pub fn play_game<G: Game>(
    game: &G,
    agents: &mut [&mut Box<dyn Agent<G>>],
    time: Option<Duration>,
    opening: u32,
    rng: &mut Rng,
    mut on_move: impl FnMut(usize, G::Action, &G::State),
) -> (G::State, Vec<Tally>) {
    let mut s = game.initial();
    for _ in 0..opening {
        if game.is_terminal(&s) {
            break;
        }
        s = game.apply(&s, game.random_action(&s, rng));
    }
    let mut tallies = vec![Tally::default(); game.players()];
    while !game.is_terminal(&s) {
        let seat = game.to_move(&s);
        let t0 = Instant::now();
        let d = agents[seat].choose(game, &s, time.map(|t| t0 + t));
        let t = &mut tallies[seat];
        let used = t0.elapsed();
        t.time += used;
        t.slowest = t.slowest.max(used);
        t.moves += 1;
        t.nodes += d.nodes;
        t.depth += u64::from(d.depth);
        // A player's bug must not pass for a move: the rules decide what is legal.
        assert!(
            game.actions(&s).contains(&d.action),
            "{} chose the illegal action {}",
            agents[seat].name(),
            d.action
        );
        s = game.apply(&s, d.action);
        on_move(seat, d.action, &s);
    }
    let u = game.utilities(&s);
    let p = points(&u);
    let best = u.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let winners = u.iter().filter(|&&x| x == best).count();
    for (seat, t) in tallies.iter_mut().enumerate() {
        t.games = 1;
        t.utility = u[seat];
        t.points = p[seat];
        match (u[seat] == best, winners) {
            (true, 1) => t.wins = 1,
            (true, _) => t.draws = 1,
            _ => t.losses = 1,
        }
    }
    (s, tallies)
}

/// A seed for player `i` given none, from the match seed.
fn player_seed(seed: u64, i: usize) -> u64 {
    crate::rng::mix(seed ^ (0x5EED_0000 + i as u64))
}

/// Plays a match: as many players as the game has seats, seats rotating; `progress` is told
/// (games done, total). Returns every seat of every game.
pub fn run_match<G, H>(
    make: &dyn Fn(u64) -> G,
    h: &H,
    specs: &[AgentSpec],
    settings: &MatchSettings,
    progress: &mut dyn FnMut(usize, usize),
) -> Vec<SeatResult>
where
    G: Game + 'static,
    H: Heuristic<G> + Clone + 'static,
{
    let n = specs.len();
    let mut agents: Vec<Box<dyn Agent<G>>> = specs
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let s = settings.time.map_or_else(|| s.clone(), |t| s.with_time(t));
            s.build(h.clone(), player_seed(settings.seed, i))
        })
        .collect();
    let mut rows = Vec::new();
    for i in 0..settings.games {
        let bs = board_seed(settings.seed, i, n);
        let game = make(bs);
        // Seat s is played by player (s + i) % n.
        let (head, tail) = agents.split_at_mut(i % n);
        let mut order: Vec<&mut Box<dyn Agent<G>>> =
            tail.iter_mut().chain(head.iter_mut()).collect();
        let mut rng = Rng::new(bs ^ 0x0FE7);
        let (_, tallies) = play_game(
            &game,
            &mut order,
            settings.time,
            settings.opening,
            &mut rng,
            |_, _, _| {},
        );
        for (seat, tally) in tallies.into_iter().enumerate() {
            rows.push(SeatResult {
                game: i + 1,
                board_seed: bs,
                seat,
                player: (seat + i) % n,
                tally,
            });
        }
        progress(i + 1, settings.games);
    }
    rows
}

/// Each player's totals over `results` (`players` players).
#[must_use]
pub fn totals(results: &[SeatResult], players: usize) -> Vec<Tally> {
    let mut t = vec![Tally::default(); players];
    for r in results {
        t[r.player].add(&r.tally);
    }
    t
}

/// One row of a tournament table: a player at one time limit.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentRow {
    /// Seconds per move.
    pub limit: f64,
    /// Index of the player.
    pub player: usize,
    /// Its totals against all groups it played in.
    pub tally: Tally,
}

/// Every group of `k` out of `n` players (lexicographic).
#[must_use]
pub fn groups(n: usize, k: usize) -> Vec<Vec<usize>> {
    fn rec(start: usize, n: usize, k: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        for i in start..n {
            cur.push(i);
            rec(i + 1, n, k, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    rec(0, n, k, &mut Vec::new(), &mut out);
    out
}

/// A tournament: at each time limit, every group of players the size of the game's seats
/// plays a match of `settings.games` games. `progress` gets a label per match.
pub fn run_tournament<G, H>(
    make: &dyn Fn(u64) -> G,
    h: &H,
    specs: &[AgentSpec],
    limits: &[f64],
    settings: &MatchSettings,
    progress: &mut dyn FnMut(&str),
) -> Vec<TournamentRow>
where
    G: Game + 'static,
    H: Heuristic<G> + Clone + 'static,
{
    let seats = make(settings.seed).players();
    let mut rows = Vec::new();
    for &limit in limits {
        let mut t = vec![Tally::default(); specs.len()];
        for group in groups(specs.len(), seats) {
            let members: Vec<AgentSpec> = group.iter().map(|&i| specs[i].clone()).collect();
            let names: Vec<String> = members.iter().map(ToString::to_string).collect();
            progress(&format!("{limit}s: {}", names.join(" vs ")));
            let s = MatchSettings {
                time: Some(Duration::from_secs_f64(limit)),
                ..settings.clone()
            };
            let results = run_match(make, h, &members, &s, &mut |_, _| {});
            for (j, tally) in totals(&results, members.len()).iter().enumerate() {
                t[group[j]].add(tally);
            }
        }
        rows.extend(
            t.into_iter()
                .enumerate()
                .map(|(player, tally)| TournamentRow {
                    limit,
                    player,
                    tally,
                }),
        );
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_all_combinations() {
        assert_eq!(groups(3, 2), vec![vec![0, 1], vec![0, 2], vec![1, 2]]);
        assert_eq!(groups(4, 3).len(), 4);
    }

    #[test]
    fn the_same_seed_plays_the_same_games() {
        let specs: Vec<AgentSpec> = ["mcts:playouts=30", "random", "alphabeta:depth=2"]
            .map(|s| s.parse().unwrap())
            .to_vec();
        let settings = MatchSettings {
            games: 3,
            seed: 9,
            time: None,
            opening: 2,
        };
        let make = |seed| Robots::standard(true, seed);
        let play = || {
            let mut r = run_match(&make, &robots::Prospects, &specs, &settings, &mut |_, _| {});
            for x in &mut r {
                x.tally.time = Duration::ZERO;
                x.tally.slowest = Duration::ZERO;
            }
            r
        };
        let first = play();
        assert_eq!(first, play());
        let other = MatchSettings {
            seed: 10,
            ..settings.clone()
        };
        let again = run_match(&make, &robots::Prospects, &specs, &other, &mut |_, _| {});
        assert_ne!(
            first.iter().map(|r| r.board_seed).collect::<Vec<_>>(),
            again.iter().map(|r| r.board_seed).collect::<Vec<_>>()
        );
    }

    #[test]
    fn seats_rotate_and_results_add_up() {
        let specs: Vec<AgentSpec> = ["greedy", "random"].map(|s| s.parse().unwrap()).to_vec();
        let settings = MatchSettings {
            games: 4,
            seed: 3,
            time: None,
            opening: 0,
        };
        let r = run_match(
            &|_| TicTacToe,
            &OpenLines,
            &specs,
            &settings,
            &mut |_, _| {},
        );
        assert_eq!(r.len(), 8);
        for x in &r {
            assert_eq!(x.player, (x.seat + x.game - 1) % 2);
        }
        let t = totals(&r, 2);
        assert_eq!(t[0].points + t[1].points, 4.0);
        assert_eq!(t[0].wins, t[1].losses);
    }
}
