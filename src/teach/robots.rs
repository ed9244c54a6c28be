//! The warehouse-robot game: robots on a 5×5 grid carry packages for credit, spend battery to
//! move and turn credit back into battery at chargers. Two robots, or three for max-n and
//! paranoid.
//!
//! Rules: two chargers and two packages are on the board (a delivered package is replaced by
//! the next of a sequence drawn from the seed); each robot starts with battery 20 and credit 0.
//! On its turn a robot with battery left moves north, south, east or west (1 battery; not off
//! the board nor onto another robot), picks up (standing on a waiting package's source,
//! holding none), drops off (standing on its package's destination: credit += 2 × the
//! Manhattan distance from source to destination) or charges (standing on a charger: battery
//! += credit, credit = 0). A robot with no battery, or no legal action, passes. The game ends
//! when every battery is empty or after the turn limit (60 turns each by default); the higher
//! credit wins, and a robot's utility is its credit minus the best other robot's.

use super::{Game, Heuristic};
use crate::rng::mix;
use std::fmt;

/// Side of the square grid.
pub const SIZE: u8 = 5;
/// Battery at the start.
pub const START_BATTERY: u32 = 20;
/// Turns each robot gets by default.
pub const DEFAULT_TURNS: u32 = 60;
/// Most robots a board holds.
pub const MAX_ROBOTS: usize = 3;

/// A cell, `row * SIZE + col` with row 0 at the top; written like a chess square (`a1` is the
/// bottom left).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cell(pub u8);

impl Cell {
    fn row(self) -> u8 {
        self.0 / SIZE
    }
    fn col(self) -> u8 {
        self.0 % SIZE
    }
    /// Manhattan distance.
    #[must_use]
    pub fn distance(self, other: Cell) -> u32 {
        u32::from(self.row().abs_diff(other.row()) + self.col().abs_diff(other.col()))
    }
    fn step(self, d: Dir) -> Option<Cell> {
        let (r, c) = (self.row(), self.col());
        let (r, c) = match d {
            Dir::North => (r.checked_sub(1)?, c),
            Dir::South => (r + 1, c),
            Dir::East => (r, c + 1),
            Dir::West => (r, c.checked_sub(1)?),
        };
        (r < SIZE && c < SIZE).then_some(Cell(r * SIZE + c))
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.col()), SIZE - self.row())
    }
}

/// A compass direction (north is up).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Up.
    North,
    /// Down.
    South,
    /// Right.
    East,
    /// Left.
    West,
}

/// A robot's action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// One cell in a direction.
    Move(Dir),
    /// Take the waiting package here.
    PickUp,
    /// Deliver the package held here, at its destination.
    DropOff,
    /// Turn all credit into battery, on a charger.
    Charge,
    /// Nothing (no battery, or nothing legal).
    Pass,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Action::Move(Dir::North) => "north",
            Action::Move(Dir::South) => "south",
            Action::Move(Dir::East) => "east",
            Action::Move(Dir::West) => "west",
            Action::PickUp => "pick-up",
            Action::DropOff => "drop-off",
            Action::Charge => "charge",
            Action::Pass => "pass",
        })
    }
}

/// A package: where it waits and where it must go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Package {
    /// Pick-up cell.
    pub source: Cell,
    /// Delivery cell (never the source).
    pub destination: Cell,
}

impl Package {
    /// Credit for delivering it.
    #[must_use]
    pub fn reward(&self) -> u32 {
        2 * self.source.distance(self.destination)
    }
}

/// One robot's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Robot {
    /// Where it stands.
    pub at: Cell,
    /// Moves left.
    pub battery: u32,
    /// Score so far (spent by charging).
    pub credit: u32,
    /// Which of the two package slots it carries.
    pub holding: Option<u8>,
}

/// A position of the robot game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Warehouse {
    /// The robots (only the first [`Robots::players`] are in play).
    pub robots: [Robot; MAX_ROBOTS],
    /// The two packages on the board (waiting or carried).
    pub packages: [Package; 2],
    /// Index of the next package of the sequence.
    pub next_package: u32,
    /// Turns played so far (all robots, passes included).
    pub turn: u32,
}

/// The rules' settings and the board layout drawn from a seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Robots {
    robots: usize,
    seed: u64,
    turns: u32,
    chargers: [Cell; 2],
    starts: [Cell; MAX_ROBOTS],
}

/// A robot game that cannot be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RobotsError {
    /// Two or three robots only.
    #[error("the robot game has 2 or 3 robots, not {0}")]
    Robots(usize),
    /// The turn limit must allow a game.
    #[error("turn limit {0}: use 1 to 1000 turns per robot")]
    Turns(u32),
}

impl Robots {
    /// A board for `robots` robots laid out from `seed`, with the default turn limit.
    pub fn new(robots: usize, seed: u64) -> Result<Self, RobotsError> {
        Self::with_turns(robots, seed, DEFAULT_TURNS)
    }

    /// The game as played by `teach`: two robots (three if `three`), default turn limit.
    #[must_use]
    pub fn standard(three: bool, seed: u64) -> Self {
        Self::layout(if three { 3 } else { 2 }, seed, DEFAULT_TURNS)
    }

    /// A board with `turns` turns per robot.
    pub fn with_turns(robots: usize, seed: u64, turns: u32) -> Result<Self, RobotsError> {
        if !(2..=MAX_ROBOTS).contains(&robots) {
            return Err(RobotsError::Robots(robots));
        }
        if !(1..=1000).contains(&turns) {
            return Err(RobotsError::Turns(turns));
        }
        Ok(Self::layout(robots, seed, turns))
    }

    /// The board for checked settings.
    fn layout(robots: usize, seed: u64, turns: u32) -> Self {
        // Chargers and robots on distinct cells, drawn in turn from the seed.
        let mut taken: Vec<Cell> = Vec::new();
        let mut k = 0u64;
        while taken.len() < 2 + MAX_ROBOTS {
            let c = Cell((mix(seed ^ 0xB0A2_D000 ^ k) % u64::from(SIZE * SIZE)) as u8);
            k += 1;
            if !taken.contains(&c) {
                taken.push(c);
            }
        }
        Robots {
            robots,
            seed,
            turns,
            chargers: [taken[0], taken[1]],
            starts: [taken[2], taken[3], taken[4]],
        }
    }

    /// The seed the layout and packages come from.
    #[must_use]
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The two chargers.
    #[must_use]
    pub fn chargers(&self) -> [Cell; 2] {
        self.chargers
    }

    /// The `k`-th package of the sequence.
    #[must_use]
    pub fn package(&self, k: u32) -> Package {
        let h = mix(self.seed ^ 0x9ACC_A6E5_0000_0000 ^ u64::from(k));
        let n = u64::from(SIZE * SIZE);
        let source = (h % n) as u8;
        let offset = 1 + ((h / n) % (n - 1)) as u8;
        Package {
            source: Cell(source),
            destination: Cell((source + offset) % (SIZE * SIZE)),
        }
    }

    fn live<'a>(&self, s: &'a Warehouse) -> &'a [Robot] {
        &s.robots[..self.robots]
    }

    /// Whether slot `i`'s package waits on its source (nobody carries it).
    fn waiting(&self, s: &Warehouse, i: usize) -> bool {
        self.live(s).iter().all(|r| r.holding != Some(i as u8))
    }

    /// The waiting package at `cell`, if any (the first slot when two wait there).
    fn waiting_at(&self, s: &Warehouse, cell: Cell) -> Option<usize> {
        (0..2).find(|&i| s.packages[i].source == cell && self.waiting(s, i))
    }

    fn legal(&self, s: &Warehouse, a: Action) -> bool {
        let me = self.to_move(s);
        let r = s.robots[me];
        if r.battery == 0 {
            return a == Action::Pass;
        }
        match a {
            Action::Move(d) => r.at.step(d).is_some_and(|to| {
                self.live(s)
                    .iter()
                    .enumerate()
                    .all(|(i, o)| i == me || o.at != to)
            }),
            Action::PickUp => r.holding.is_none() && self.waiting_at(s, r.at).is_some(),
            Action::DropOff => r
                .holding
                .is_some_and(|i| s.packages[usize::from(i)].destination == r.at),
            Action::Charge => self.chargers.contains(&r.at),
            Action::Pass => false,
        }
    }
}

const ACTIONS: [Action; 7] = [
    Action::Move(Dir::North),
    Action::Move(Dir::South),
    Action::Move(Dir::East),
    Action::Move(Dir::West),
    Action::PickUp,
    Action::DropOff,
    Action::Charge,
];

impl Game for Robots {
    type State = Warehouse;
    type Action = Action;

    fn players(&self) -> usize {
        self.robots
    }

    fn initial(&self) -> Warehouse {
        let robot = |i: usize| Robot {
            at: self.starts[i],
            battery: START_BATTERY,
            credit: 0,
            holding: None,
        };
        Warehouse {
            robots: [robot(0), robot(1), robot(2)],
            packages: [self.package(0), self.package(1)],
            next_package: 2,
            turn: 0,
        }
    }

    fn to_move(&self, s: &Warehouse) -> usize {
        s.turn as usize % self.robots
    }

    fn actions(&self, s: &Warehouse) -> Vec<Action> {
        if self.is_terminal(s) {
            return Vec::new();
        }
        let mut v: Vec<Action> = ACTIONS
            .iter()
            .copied()
            .filter(|&a| self.legal(s, a))
            .collect();
        if v.is_empty() {
            v.push(Action::Pass);
        }
        v
    }

    fn apply(&self, s: &Warehouse, a: Action) -> Warehouse {
        let mut n = *s;
        let me = self.to_move(s);
        let r = &mut n.robots[me];
        match a {
            Action::Move(d) => {
                r.at = r.at.step(d).unwrap_or(r.at);
                r.battery = r.battery.saturating_sub(1);
            }
            Action::PickUp => r.holding = self.waiting_at(s, r.at).map(|i| i as u8),
            Action::DropOff => {
                if let Some(i) = r.holding.take() {
                    r.credit += n.packages[usize::from(i)].reward();
                    n.packages[usize::from(i)] = self.package(n.next_package);
                    n.next_package += 1;
                }
            }
            Action::Charge => {
                r.battery += r.credit;
                r.credit = 0;
            }
            Action::Pass => {}
        }
        n.turn += 1;
        n
    }

    fn is_terminal(&self, s: &Warehouse) -> bool {
        s.turn >= self.turns * self.robots as u32 || self.live(s).iter().all(|r| r.battery == 0)
    }

    fn utilities(&self, s: &Warehouse) -> Vec<f64> {
        (0..self.robots).map(|p| self.utility(s, p)).collect()
    }

    /// Own credit minus the best other robot's credit.
    fn utility(&self, s: &Warehouse, player: usize) -> f64 {
        margin(self.live(s), player, |r| f64::from(r.credit))
    }

    fn value_bounds(&self) -> (f64, f64) {
        // A delivery pays at most 16 and takes at least two turns; the heuristic adds < 16.
        let b = f64::from(8 * self.turns + 32);
        (-b, b)
    }

    fn default_depth(&self) -> u32 {
        4
    }

    fn render(&self, s: &Warehouse) -> String {
        let mut out = String::new();
        for row in 0..SIZE {
            out.push_str(&format!("{} ", SIZE - row));
            for col in 0..SIZE {
                let c = Cell(row * SIZE + col);
                let robot = self.live(s).iter().position(|r| r.at == c);
                let ch = if let Some(i) = robot {
                    char::from(b'A' + i as u8)
                } else if let Some(i) = self.waiting_at(s, c) {
                    char::from(b'1' + i as u8)
                } else if let Some(i) = (0..2).find(|&i| s.packages[i].destination == c) {
                    ['x', 'y'][i]
                } else if self.chargers.contains(&c) {
                    '+'
                } else {
                    '.'
                };
                out.push(ch);
                out.push(' ');
            }
            out.pop();
            out.push('\n');
        }
        out.push_str("  a b c d e\n");
        for (i, r) in self.live(s).iter().enumerate() {
            let held = r
                .holding
                .map_or("nothing".to_string(), |p| format!("package {}", p + 1));
            out.push_str(&format!(
                "{}: {} battery {} credit {} holding {held}\n",
                char::from(b'A' + i as u8),
                r.at,
                r.battery,
                r.credit
            ));
        }
        for (i, p) in s.packages.iter().enumerate() {
            let state = if self.waiting(s, i) {
                "waiting"
            } else {
                "carried"
            };
            out.push_str(&format!(
                "package {} ({state}, worth {}): {} ({}) -> {} ({})\n",
                i + 1,
                p.reward(),
                p.source,
                char::from(b'1' + i as u8),
                p.destination,
                ['x', 'y'][i],
            ));
        }
        let [c1, c2] = self.chargers;
        out.push_str(&format!("chargers (+): {c1} {c2}; turn {}\n", s.turn));
        out
    }

    fn player_name(&self, player: usize) -> String {
        format!("robot {}", char::from(b'A' + player as u8))
    }
}

/// `player`'s `score` minus the best other robot's.
fn margin(robots: &[Robot], player: usize, score: impl Fn(&Robot) -> f64) -> f64 {
    let best_other = robots
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != player)
        .map(|(_, r)| score(r))
        .fold(f64::NEG_INFINITY, f64::max);
    score(&robots[player]) - best_other
}

/// Credit plus what the robot can soon earn, minus the same for the best other robot.
///
/// A robot carrying a package it has the battery to deliver counts 90% of its reward less a
/// tenth per step still to go; an empty-handed robot counts half the reward of the best
/// waiting package it can still fetch and deliver, less a tenth per step. Unreachable
/// packages count nothing, so battery matters only through what it makes reachable. The
/// estimate is within a delivery (< 16) of the credit margin.
#[derive(Clone, Copy, Debug, Default)]
pub struct Prospects;

impl Prospects {
    fn prospect(game: &Robots, s: &Warehouse, r: &Robot) -> f64 {
        let gain = |reward: u32, steps: u32, share: f64| {
            if steps <= r.battery {
                f64::from(reward) * share - 0.1 * f64::from(steps)
            } else {
                0.0
            }
        };
        match r.holding {
            Some(i) => {
                let p = s.packages[usize::from(i)];
                gain(p.reward(), r.at.distance(p.destination), 0.9)
            }
            None => (0..2)
                .filter(|&i| game.waiting(s, i))
                .map(|i| {
                    let p = s.packages[i];
                    let steps = r.at.distance(p.source) + p.source.distance(p.destination);
                    gain(p.reward(), steps, 0.5)
                })
                .fold(0.0, f64::max),
        }
    }
}

impl Heuristic<Robots> for Prospects {
    fn eval(&self, game: &Robots, s: &Warehouse, player: usize) -> f64 {
        margin(game.live(s), player, |r| {
            f64::from(r.credit) + Self::prospect(game, s, r).max(0.0)
        })
    }
}
