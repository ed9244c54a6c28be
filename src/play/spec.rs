//! Player specifications such as `alphabeta:depth=4`, `mcts:time=1` or `gtp:gtp-rhino -l 5`.

use crate::engine::EvalKind;
use crate::play::book_choice::{parse_randomness, BookSetting};
use crate::play::engine_player::{BetterPlayer, EnginePlayer};
use crate::play::gtp_client::{GtpPlayer, DEFAULT_COMMAND_TIMEOUT};
use crate::play::mcts::MctsPlayer;
use crate::play::search::{Algorithm, RandomPlayer, Rng, SearchPlayer, SimplePlayer};
use crate::play::seconds::seconds_in;
use crate::play::{Player, PlayerError};
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The players `othbook match` knows, with their options (for help texts and errors).
pub const PLAYERS: &[(&str, &str)] = &[
    ("random", "uniformly random legal move; seed=N"),
    ("simple", "one ply, most discs"),
    (
        "better",
        "one ply of the hand-made evaluation, opening book first; book=PATH|none \
         book-randomness=DISCS seed=N",
    ),
    (
        "minimax",
        "iterative-deepening minimax, disc-count evaluation; depth=D time=S",
    ),
    (
        "alphabeta",
        "iterative-deepening alpha-beta, disc-count evaluation; depth=D time=S",
    ),
    ("expectimax", "opponent assumed random; depth=D time=S"),
    (
        "mcts",
        "Monte-Carlo tree search, UCB1; time=S playouts=N c=1.414 seed=N",
    ),
    (
        "engine",
        "the full engine: book, PVS, shared table, exact endgame; time=S depth=D threads=N \
         hash=MB book=PATH|none eval=pattern|hand book-randomness=DISCS seed=N",
    ),
    (
        "gtp:COMMAND",
        "an external GTP engine, e.g. gtp:gtp-rhino -l 5",
    ),
];

/// A parsed player specification: a kind and `key=value` options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerSpec {
    /// `random`, `alphabeta`, `gtp`, ...
    pub kind: String,
    /// Options (for `gtp`: the key `command`).
    pub options: BTreeMap<String, String>,
}

/// A specification that does not name a known player or has bad options.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("player {spec:?}: {reason}")]
pub struct SpecError {
    /// The specification as written.
    pub spec: String,
    /// What is wrong.
    pub reason: String,
}

impl FromStr for PlayerSpec {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = |r: &str| SpecError {
            spec: s.to_string(),
            reason: r.to_string(),
        };
        let s_trim = s.trim();
        let (kind, rest) = s_trim.split_once(':').unwrap_or((s_trim, ""));
        let kind = kind.to_ascii_lowercase();
        let mut options = BTreeMap::new();
        if kind == "gtp" {
            if rest.trim().is_empty() {
                return Err(err("gtp needs a command, e.g. gtp:gtp-rhino -l 5"));
            }
            options.insert("command".to_string(), rest.trim().to_string());
        } else {
            for item in rest.split([',', ':']).filter(|i| !i.trim().is_empty()) {
                let (k, v) = item
                    .split_once('=')
                    .ok_or_else(|| err("options are key=value"))?;
                options.insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
            }
        }
        if kind.is_empty() {
            return Err(err("empty player name"));
        }
        Ok(PlayerSpec { kind, options })
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.kind == "gtp" {
            return write!(
                f,
                "gtp:{}",
                self.options.get("command").map_or("", String::as_str)
            );
        }
        f.write_str(&self.kind)?;
        for (i, (k, v)) in self.options.iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

impl PlayerSpec {
    fn err(&self, reason: impl Into<String>) -> SpecError {
        SpecError {
            spec: self.to_string(),
            reason: reason.into(),
        }
    }

    fn num<T: FromStr>(&self, key: &str) -> Result<Option<T>, SpecError> {
        self.options
            .get(key)
            .map(|v| {
                v.parse::<T>()
                    .map_err(|_| self.err(format!("{key}={v} is not a valid number")))
            })
            .transpose()
    }

    fn only(&self, allowed: &[&str]) -> Result<(), SpecError> {
        match self.options.keys().find(|k| !allowed.contains(&k.as_str())) {
            Some(k) => Err(self.err(format!(
                "unknown option {k:?} (allowed: {})",
                allowed.join(", ")
            ))),
            None => Ok(()),
        }
    }

    fn time(&self) -> Result<Option<Duration>, SpecError> {
        self.options
            .get("time")
            .map(|v| seconds_in(v, 0.001, 3600.0).map_err(|e| self.err(format!("time: {e}"))))
            .transpose()
    }

    fn depth(&self) -> Result<Option<u32>, SpecError> {
        match self.num::<u32>("depth")? {
            Some(d) if !(1..=60).contains(&d) => Err(self.err("depth must be 1 to 60")),
            d => Ok(d),
        }
    }

    fn book(&self) -> Result<Option<std::sync::Arc<crate::book::Book>>, SpecError> {
        let setting = self
            .options
            .get("book")
            .map_or(BookSetting::Default, |v| BookSetting::parse(v));
        setting.open().map_err(|e| {
            // The book error names the file; its source says what went wrong with it.
            let why = std::error::Error::source(&e).map_or(String::new(), |s| format!(": {s}"));
            self.err(format!("book: {e}{why}"))
        })
    }

    /// `book-randomness`: how many discs below the best value a book move may be (0 when
    /// not given).
    fn book_randomness(&self) -> Result<f64, SpecError> {
        self.options
            .get("book-randomness")
            .map_or(Ok(0.0), |v| parse_randomness(v).map_err(|e| self.err(e)))
    }

    fn eval(&self) -> Result<EvalKind, SpecError> {
        self.options
            .get("eval")
            .map_or(Ok(EvalKind::default()), |v| {
                v.parse().map_err(|e| self.err(e))
            })
    }

    /// Checks the options without starting anything (external engines are not run).
    pub fn validate(&self) -> Result<(), SpecError> {
        match self.kind.as_str() {
            "random" => self.only(&["seed"]).and(self.num::<u64>("seed").map(drop)),
            "simple" => self.only(&[]),
            "minimax" | "alphabeta" | "expectimax" => {
                self.only(&["depth", "time"])?;
                self.depth()?;
                self.time().map(drop)
            }
            "mcts" => {
                self.only(&["time", "playouts", "c", "seed"])?;
                self.time()?;
                self.num::<u64>("playouts")?;
                self.num::<u64>("seed")?;
                match self.num::<f64>("c")? {
                    Some(c) if !(0.0..=100.0).contains(&c) => Err(self.err("c must be 0 to 100")),
                    _ => Ok(()),
                }
            }
            "better" => {
                self.only(&["book", "book-randomness", "seed"])?;
                self.num::<u64>("seed")?;
                self.book_randomness().map(drop)
            }
            "engine" => {
                self.only(&[
                    "time",
                    "depth",
                    "threads",
                    "hash",
                    "book",
                    "eval",
                    "book-randomness",
                    "seed",
                ])?;
                self.num::<u64>("seed")?;
                self.book_randomness()?;
                self.time()?;
                self.depth()?;
                self.eval()?;
                match (self.num::<usize>("threads")?, self.num::<usize>("hash")?) {
                    (Some(t), _) if !(1..=256).contains(&t) => {
                        Err(self.err("threads must be 1 to 256"))
                    }
                    (_, Some(h)) if !(1..=65_536).contains(&h) => {
                        Err(self.err("hash must be 1 to 65536 MiB"))
                    }
                    _ => Ok(()),
                }
            }
            "gtp" => Ok(()),
            other => Err(self.err(format!(
                "unknown player {other:?}; known: {}",
                PLAYERS.iter().map(|p| p.0).collect::<Vec<_>>().join(", ")
            ))),
        }
    }

    /// Creates the player (starting external engines, with
    /// [`DEFAULT_COMMAND_TIMEOUT`] for their commands other than `genmove`).
    pub fn build(&self) -> Result<Box<dyn Player>, BuildError> {
        self.build_with_timeout(DEFAULT_COMMAND_TIMEOUT)
    }

    /// Creates the player; an external engine must answer each command other than `genmove`
    /// (start-up included) within `engine_timeout`, or it counts as failed.
    pub fn build_with_timeout(
        &self,
        engine_timeout: Duration,
    ) -> Result<Box<dyn Player>, BuildError> {
        self.validate()?;
        let seed = || {
            self.num::<u64>("seed")
                .ok()
                .flatten()
                .unwrap_or_else(Rng::fresh_seed)
        };
        Ok(match self.kind.as_str() {
            "random" => Box::new(RandomPlayer::new(seed())),
            "simple" => Box::new(SimplePlayer),
            "minimax" | "alphabeta" | "expectimax" => Box::new(SearchPlayer {
                algo: match self.kind.as_str() {
                    "minimax" => Algorithm::Minimax,
                    "alphabeta" => Algorithm::AlphaBeta,
                    _ => Algorithm::Expectimax,
                },
                depth: self.depth()?,
                time: self.time()?,
            }),
            "mcts" => Box::new(MctsPlayer::new(
                self.num::<f64>("c")?.unwrap_or(std::f64::consts::SQRT_2),
                self.time()?,
                self.num::<u64>("playouts")?,
                seed(),
            )),
            "better" => Box::new(
                BetterPlayer::new(self.book()?)
                    .with_book_randomness(self.book_randomness()?, seed()),
            ),
            "engine" => Box::new(
                EnginePlayer::new(
                    self.num::<usize>("threads")?.unwrap_or(1),
                    self.num::<usize>("hash")?.unwrap_or(64),
                    self.time()?,
                    self.depth()?,
                    self.eval()?,
                )
                .map_err(|e| self.err(e.to_string()))?
                .with_book(self.book()?)
                .with_book_randomness(self.book_randomness()?, seed()),
            ),
            "gtp" => Box::new(GtpPlayer::spawn_with_timeout(
                self.options.get("command").map_or("", String::as_str),
                engine_timeout,
            )?),
            _ => unreachable!("validate accepted an unknown kind"),
        })
    }
}

/// A player that could not be created.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// Bad specification.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// The player failed to start.
    #[error(transparent)]
    Start(#[from] PlayerError),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_display() {
        let s: PlayerSpec = "alphabeta:depth=4".parse().unwrap();
        assert_eq!(s.kind, "alphabeta");
        assert_eq!(s.options["depth"], "4");
        assert_eq!(s.to_string(), "alphabeta:depth=4");
        let g: PlayerSpec = "gtp:gtp-rhino -l 5".parse().unwrap();
        assert_eq!(g.options["command"], "gtp-rhino -l 5");
        assert_eq!(g.to_string(), "gtp:gtp-rhino -l 5");
        let m: PlayerSpec = "mcts:time=0.5,c=1".parse().unwrap();
        assert!(m.validate().is_ok());
        for e in [
            "engine:depth=6,eval=pattern",
            "engine:eval=hand,time=0.1",
            "engine:book-randomness=1.5,seed=3",
            "better:book-randomness=0,seed=1",
        ] {
            assert!(e.parse::<PlayerSpec>().unwrap().validate().is_ok(), "{e}");
        }
    }

    #[test]
    fn every_listed_player_is_accepted_as_listed() {
        for (name, _) in PLAYERS {
            let spec = name.replace("COMMAND", "gtp-rhino");
            let s: PlayerSpec = spec.parse().unwrap();
            assert!(s.validate().is_ok(), "{spec}");
        }
    }

    #[test]
    fn bad_specs_are_rejected() {
        for bad in [
            "",
            "nobody",
            "alphabeta:depth=0",
            "alphabeta:depth=x",
            "minimax:speed=3",
            "random:seed",
            "gtp:",
            "mcts:c=-1",
            "engine:eval=neural",
            "mcts:time=nan",
            "engine:time=inf",
            "engine:book-randomness=-1",
            "engine:book-randomness=nan",
            "better:book-randomness=65",
            "engine:seed=x",
            "alphabeta:time=1e300",
        ] {
            let r = bad.parse::<PlayerSpec>().and_then(|s| s.validate());
            assert!(r.is_err(), "{bad}");
        }
    }
}
