//! Teaching-player specifications such as `alphabeta:depth=4,order=off` or `mcts:time=0.1`:
//! parsed and checked once into an [`AgentSpec`]; the help table, the checks and the
//! construction all come from [`Kind`] and [`Opt`].
//!
//! The Othello match players (`othbook match`, `gtp`, `nboard`) reuse this grammar for the
//! classic players and add their own kinds in `crate::play::spec`.

use super::deepen::Limits;
use super::expectimax::Expectimax;
use super::greedy::Greedy;
use super::maxn::Maxn;
use super::mcts::{self, Mcts};
use super::minimax::{Method, Minimax};
use super::random::RandomAgent;
use super::{Agent, Game, Heuristic};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The teaching players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Uniformly random.
    Random,
    /// One ply of the heuristic.
    Greedy,
    /// Minimax without pruning.
    Minimax,
    /// Minimax with alpha-beta pruning.
    AlphaBeta,
    /// Other players move at random.
    Expectimax,
    /// Each player maximises its own value.
    Maxn,
    /// All other players minimise ours (alpha-beta).
    Paranoid,
    /// Monte-Carlo tree search.
    Mcts,
}

/// An option of a player specification.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opt {
    /// `depth=D`.
    Depth,
    /// `time=S`.
    Time,
    /// `order=on|off`.
    Order,
    /// `prune=on|off`.
    Prune,
    /// `playouts=N`.
    Playouts,
    /// `c=X`.
    C,
    /// `seed=N`.
    Seed,
}

impl Kind {
    /// Every kind, in help order.
    pub const ALL: [Kind; 8] = [
        Kind::Random,
        Kind::Greedy,
        Kind::Minimax,
        Kind::AlphaBeta,
        Kind::Expectimax,
        Kind::Maxn,
        Kind::Paranoid,
        Kind::Mcts,
    ];

    /// The name in specifications.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Random => "random",
            Kind::Greedy => "greedy",
            Kind::Minimax => "minimax",
            Kind::AlphaBeta => "alphabeta",
            Kind::Expectimax => "expectimax",
            Kind::Maxn => "maxn",
            Kind::Paranoid => "paranoid",
            Kind::Mcts => "mcts",
        }
    }

    /// One line for help tables.
    #[must_use]
    pub const fn about(self) -> &'static str {
        match self {
            Kind::Random => "uniformly random legal action",
            Kind::Greedy => "one ply of the heuristic",
            Kind::Minimax => "minimax (others minimise ours), iterative deepening under time",
            Kind::AlphaBeta => "minimax with alpha-beta pruning and move ordering",
            Kind::Expectimax => "others move uniformly at random; Star1 pruning",
            Kind::Maxn => "each player maximises its own value",
            Kind::Paranoid => "alpha-beta assuming all others minimise ours",
            Kind::Mcts => "Monte-Carlo tree search, UCB1, random playouts",
        }
    }

    /// The options it takes.
    #[must_use]
    pub const fn options(self) -> &'static [Opt] {
        match self {
            Kind::Random => &[Opt::Seed],
            Kind::Greedy => &[],
            Kind::Minimax | Kind::Maxn => &[Opt::Depth, Opt::Time],
            Kind::AlphaBeta | Kind::Paranoid => &[Opt::Depth, Opt::Time, Opt::Order],
            Kind::Expectimax => &[Opt::Depth, Opt::Time, Opt::Prune],
            Kind::Mcts => &[Opt::Time, Opt::Playouts, Opt::C, Opt::Seed],
        }
    }

    /// The options as `key=VALUE` words, for help tables.
    #[must_use]
    pub fn usage(self) -> String {
        self.options()
            .iter()
            .map(|o| o.usage())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl FromStr for Kind {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<Self, SpecError> {
        let s = s.trim().to_ascii_lowercase();
        Kind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| SpecError::UnknownKind {
                name: s,
                known: Kind::ALL.map(Kind::name).join(", "),
            })
    }
}

impl Opt {
    /// Every option, in alphabetical order (the canonical order of a written spec, as
    /// `othbook match` has always written them).
    pub const ALL: [Opt; 7] = [
        Opt::C,
        Opt::Depth,
        Opt::Order,
        Opt::Playouts,
        Opt::Prune,
        Opt::Seed,
        Opt::Time,
    ];

    /// The key.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Opt::Depth => "depth",
            Opt::Time => "time",
            Opt::Order => "order",
            Opt::Prune => "prune",
            Opt::Playouts => "playouts",
            Opt::C => "c",
            Opt::Seed => "seed",
        }
    }

    /// `key=VALUE` with the value's form.
    #[must_use]
    pub const fn usage(self) -> &'static str {
        match self {
            Opt::Depth => "depth=PLIES",
            Opt::Time => "time=SECS",
            Opt::Order => "order=on|off",
            Opt::Prune => "prune=on|off",
            Opt::Playouts => "playouts=N",
            Opt::C => "c=1.414",
            Opt::Seed => "seed=N",
        }
    }
}

/// Deepest search accepted.
pub const MAX_DEPTH: u32 = 200;
/// Longest time per move accepted, in seconds.
pub const MAX_TIME: f64 = 3600.0;

/// A specification that names no player or has a bad option.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// Nothing written.
    #[error("empty player specification")]
    Empty,
    /// Not a player kind.
    #[error("unknown player {name:?} (known: {known})")]
    UnknownKind {
        /// What was written.
        name: String,
        /// The kinds there are.
        known: String,
    },
    /// An option the kind does not take.
    #[error("{kind}: unknown option {key:?} (it takes: {allowed})")]
    UnknownOption {
        /// The player kind.
        kind: &'static str,
        /// The key written.
        key: String,
        /// Its options.
        allowed: String,
    },
    /// Not `key=value`.
    #[error("{kind}: {item:?} is not key=value")]
    NotKeyValue {
        /// The player kind.
        kind: &'static str,
        /// The text.
        item: String,
    },
    /// Twice the same key.
    #[error("{kind}: option {key} given twice")]
    Repeated {
        /// The player kind.
        kind: &'static str,
        /// The key.
        key: &'static str,
    },
    /// A value out of range or of the wrong form.
    #[error("{kind}: {key}={value}: {reason}")]
    BadValue {
        /// The player kind.
        kind: &'static str,
        /// The key.
        key: &'static str,
        /// The value written.
        value: String,
        /// What it should be.
        reason: &'static str,
    },
}

/// A checked teaching-player specification: its kind and the options given.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentSpec {
    /// The player.
    pub kind: Kind,
    /// `depth`: plies.
    pub depth: Option<u32>,
    /// `time`: per move.
    pub time: Option<Duration>,
    /// `order`: move ordering (alpha-beta, paranoid; on by default).
    pub order: Option<bool>,
    /// `prune`: Star1 pruning (expectimax; on by default).
    pub prune: Option<bool>,
    /// `playouts`: per move (MCTS).
    pub playouts: Option<u64>,
    /// `c`: UCB1 exploration constant (MCTS; √2 by default).
    pub c: Option<f64>,
    /// `seed`: random players' seed (otherwise the match's).
    pub seed: Option<u64>,
}

impl AgentSpec {
    /// `kind` with no options.
    #[must_use]
    pub fn new(kind: Kind) -> Self {
        AgentSpec {
            kind,
            depth: None,
            time: None,
            order: None,
            prune: None,
            playouts: None,
            c: None,
            seed: None,
        }
    }

    /// Sets `key` from `value` (the key must be one of the kind's options).
    fn set(&mut self, opt: Opt, value: &str) -> Result<(), SpecError> {
        let kind = self.kind.name();
        let bad = |reason| SpecError::BadValue {
            kind,
            key: opt.name(),
            value: value.to_string(),
            reason,
        };
        let given = match opt {
            Opt::Depth => {
                let d: u32 = value.parse().map_err(|_| bad("not a whole number"))?;
                if !(1..=MAX_DEPTH).contains(&d) {
                    return Err(bad("depth must be 1 to 200"));
                }
                self.depth.replace(d).is_some()
            }
            Opt::Time => {
                let t: f64 = value.parse().map_err(|_| bad("not a number of seconds"))?;
                if !(0.001..=MAX_TIME).contains(&t) {
                    return Err(bad("time must be 0.001 to 3600 seconds"));
                }
                self.time.replace(Duration::from_secs_f64(t)).is_some()
            }
            Opt::Order | Opt::Prune => {
                let b = match value.to_ascii_lowercase().as_str() {
                    "on" | "yes" | "true" | "1" => true,
                    "off" | "no" | "false" | "0" => false,
                    _ => return Err(bad("use on or off")),
                };
                let slot = if opt == Opt::Order {
                    &mut self.order
                } else {
                    &mut self.prune
                };
                slot.replace(b).is_some()
            }
            Opt::Playouts => {
                let n: u64 = value.parse().map_err(|_| bad("not a whole number"))?;
                if !(1..=1_000_000_000).contains(&n) {
                    return Err(bad("playouts must be 1 to 10^9"));
                }
                self.playouts.replace(n).is_some()
            }
            Opt::C => {
                let c: f64 = value.parse().map_err(|_| bad("not a number"))?;
                if !(0.0..=100.0).contains(&c) {
                    return Err(bad("c must be 0 to 100"));
                }
                self.c.replace(c).is_some()
            }
            Opt::Seed => {
                let s: u64 = value.parse().map_err(|_| bad("not a whole number"))?;
                self.seed.replace(s).is_some()
            }
        };
        if given {
            return Err(SpecError::Repeated {
                kind,
                key: opt.name(),
            });
        }
        Ok(())
    }

    /// Parses the options after the kind (`key=value` separated by `,` or `:`).
    fn parse_options(&mut self, text: &str) -> Result<(), SpecError> {
        let kind = self.kind.name();
        for item in text
            .split([',', ':'])
            .map(str::trim)
            .filter(|i| !i.is_empty())
        {
            let (k, v) = item.split_once('=').ok_or_else(|| SpecError::NotKeyValue {
                kind,
                item: item.to_string(),
            })?;
            let key = k.trim().to_ascii_lowercase();
            let opt = self
                .kind
                .options()
                .iter()
                .copied()
                .find(|o| o.name() == key)
                .ok_or_else(|| SpecError::UnknownOption {
                    kind,
                    key: key.clone(),
                    allowed: match self.kind.usage() {
                        u if u.is_empty() => "no options".into(),
                        u => u,
                    },
                })?;
            self.set(opt, v.trim())?;
        }
        Ok(())
    }

    /// The same player limited to `time` per move instead of a depth or a playout count
    /// (players without a time option are unchanged).
    #[must_use]
    pub fn with_time(&self, time: Duration) -> AgentSpec {
        let mut s = self.clone();
        if s.kind.options().contains(&Opt::Time) {
            s.time = Some(time);
            s.depth = None;
            s.playouts = None;
        }
        s
    }

    /// The same player with a fixed depth (players without a depth option are unchanged).
    #[must_use]
    pub fn with_depth(&self, depth: u32) -> AgentSpec {
        let mut s = self.clone();
        if s.kind.options().contains(&Opt::Depth) {
            s.depth = Some(depth);
        }
        s
    }

    fn limits(&self) -> Limits {
        Limits {
            depth: self.depth,
            time: self.time,
        }
    }

    /// Builds the player for game `G`, valuing positions with `heuristic`; `seed` serves a
    /// random player given none.
    pub fn build<G, H>(&self, heuristic: H, seed: u64) -> Box<dyn Agent<G>>
    where
        G: Game + 'static,
        H: Heuristic<G> + 'static,
    {
        let name = self.to_string();
        let seed = self.seed.unwrap_or(seed);
        let ordered = |prune| Method {
            prune,
            order: prune && self.order.unwrap_or(true),
        };
        match self.kind {
            Kind::Random => Box::new(RandomAgent::new(seed, name)),
            Kind::Greedy => Box::new(Greedy::new(heuristic, name)),
            Kind::Minimax => Box::new(Minimax::new(heuristic, ordered(false), self.limits(), name)),
            Kind::AlphaBeta | Kind::Paranoid => {
                Box::new(Minimax::new(heuristic, ordered(true), self.limits(), name))
            }
            Kind::Expectimax => Box::new(Expectimax::new(
                heuristic,
                self.prune.unwrap_or(true),
                self.limits(),
                name,
            )),
            Kind::Maxn => Box::new(Maxn::new(heuristic, self.limits(), name)),
            Kind::Mcts => Box::new(Mcts::new(
                self.c.unwrap_or(std::f64::consts::SQRT_2),
                mcts::Budget {
                    playouts: self.playouts,
                    time: self.time,
                },
                seed,
                name,
            )),
        }
    }
}

impl FromStr for AgentSpec {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<Self, SpecError> {
        let s = s.trim();
        if s.is_empty() {
            return Err(SpecError::Empty);
        }
        let (kind, rest) = s.split_once(':').unwrap_or((s, ""));
        let mut spec = AgentSpec::new(kind.parse()?);
        spec.parse_options(rest)?;
        Ok(spec)
    }
}

impl fmt::Display for AgentSpec {
    /// The canonical form (options in [`Opt::ALL`] order), which parses back to the same.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind.name())?;
        let on = |b: bool| if b { "on" } else { "off" };
        let values = Opt::ALL.map(|o| match o {
            Opt::Depth => self.depth.map(|d| d.to_string()),
            Opt::Time => self.time.map(|t| t.as_secs_f64().to_string()),
            Opt::Order => self.order.map(|b| on(b).to_string()),
            Opt::Prune => self.prune.map(|b| on(b).to_string()),
            Opt::Playouts => self.playouts.map(|p| p.to_string()),
            Opt::C => self.c.map(|c| c.to_string()),
            Opt::Seed => self.seed.map(|s| s.to_string()),
        });
        let mut sep = ':';
        for (o, v) in Opt::ALL.iter().zip(values) {
            if let Some(v) = v {
                write!(f, "{sep}{}={v}", o.name())?;
                sep = ',';
            }
        }
        Ok(())
    }
}

/// Splits a `--players` list such as `mcts:time=0.5,c=1,alphabeta:depth=3,greedy` at the
/// commas that start a new player: an item with `=` and no `:` continues the previous
/// player's options.
#[must_use]
pub fn split_players(list: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for item in list.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        match out.last_mut() {
            Some(last) if item.contains('=') && !item.contains(':') => {
                last.push(',');
                last.push_str(item);
            }
            _ => out.push(item.to_string()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_round_trip_through_their_canonical_form() {
        for (text, canon) in [
            ("alphabeta:depth=4", "alphabeta:depth=4"),
            ("AlphaBeta:order=off:depth=4", "alphabeta:depth=4,order=off"),
            ("mcts:time=0.5,c=1", "mcts:c=1,time=0.5"),
            ("expectimax:prune=no", "expectimax:prune=off"),
            ("random", "random"),
        ] {
            let s: AgentSpec = text.parse().unwrap();
            assert_eq!(s.to_string(), canon);
            assert_eq!(canon.parse::<AgentSpec>().unwrap(), s);
        }
    }

    #[test]
    fn every_kind_accepts_every_option_it_lists() {
        for k in Kind::ALL {
            let text = format!(
                "{}:{}",
                k.name(),
                k.options()
                    .iter()
                    .map(|o| match o {
                        Opt::Order | Opt::Prune => format!("{}=on", o.name()),
                        _ => format!("{}=1", o.name()),
                    })
                    .collect::<Vec<_>>()
                    .join(",")
            );
            assert!(text.parse::<AgentSpec>().is_ok(), "{text}");
        }
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        for (bad, want) in [
            ("", "empty"),
            ("nobody", "unknown player"),
            ("greedy:depth=3", "unknown option"),
            ("alphabeta:depth=0", "depth must be"),
            ("alphabeta:depth=x", "not a whole number"),
            ("minimax:prune=on", "unknown option"),
            ("random:seed", "not key=value"),
            ("mcts:c=-1", "c must be"),
            ("mcts:time=nan", "time must be"),
            ("mcts:time=inf", "time must be"),
            ("alphabeta:time=1e300", "time must be"),
            ("alphabeta:depth=3,depth=4", "twice"),
            ("expectimax:prune=maybe", "on or off"),
        ] {
            let e = bad.parse::<AgentSpec>().unwrap_err().to_string();
            assert!(e.contains(want), "{bad}: {e}");
        }
    }

    #[test]
    fn player_lists_split_between_players_only() {
        assert_eq!(
            split_players("mcts:time=0.5,c=1,alphabeta:depth=3, greedy"),
            ["mcts:time=0.5,c=1", "alphabeta:depth=3", "greedy"]
        );
    }
}
