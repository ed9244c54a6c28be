//! Player specifications such as `alphabeta:depth=4`, `mcts:time=1`, `gtp:gtp-rhino -l 5` or
//! `nboard:depth=12:ntest x`,
//! parsed and checked once into a [`PlayerSpec`]; the help table ([`players`]), the checks
//! and the construction all come from the kinds ([`crate::teach::spec::Kind`] for the
//! classic players, [`Kind`] here) and their option enums.
//!
//! Why two spec files: they are one grammar in two layers. The classic players' names and
//! options are read by [`crate::teach::spec`] alone, because those players work on any game
//! and `teach` sits below `play`; this file reads only what exists for Othello matches (the
//! engine, `better`, `gtp:` and `nboard:` players, the book and randomness options) and
//! builds match [`Player`]s from both.

use crate::engine::{Depth, EvalKind, HashSize, Selectivity, ThreadCount, MAX_HASH_MB};
use crate::play::book_choice::{parse_randomness, BookSetting};
use crate::play::engine_player::{BetterPlayer, EnginePlayer};
use crate::play::gtp_client::{GtpPlayer, DEFAULT_COMMAND_TIMEOUT};
use crate::play::nboard_client::{NboardLimits, NboardPlayer, DEFAULT_DEPTH};
use crate::play::search::ClassicPlayer;
use crate::play::{Player, PlayerError};
use crate::rng::Rng;
use crate::teach::othello::Discs;
use crate::teach::spec::{AgentSpec, Kind as ClassicKind, SpecError as ClassicError};
use crate::wire::seconds::seconds_in;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// Deepest search an Othello player may be asked for: the game has at most 60 moves.
pub const MAX_OTHELLO_DEPTH: u32 = 60;

/// The players that are not classic teaching players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// One ply of the hand-made evaluation, book first.
    Better,
    /// The full engine.
    Engine,
    /// An external GTP engine.
    Gtp,
    /// An external NBoard engine.
    Nboard,
}

/// An option of `better` or `engine`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opt {
    /// `time=S`.
    Time,
    /// `depth=D`.
    Depth,
    /// `threads=N`.
    Threads,
    /// `hash=MB`.
    Hash,
    /// `book=PATH|none`.
    Book,
    /// `eval=pattern|hand`.
    Eval,
    /// `book-randomness=DISCS`.
    BookRandomness,
    /// `seed=N`.
    Seed,
    /// `selectivity=73|87|95|98|99|100`.
    Selectivity,
}

impl Kind {
    /// Every kind, in help order.
    pub const ALL: [Kind; 4] = [Kind::Better, Kind::Engine, Kind::Gtp, Kind::Nboard];

    /// The name in specifications.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Better => "better",
            Kind::Engine => "engine",
            Kind::Gtp => "gtp",
            Kind::Nboard => "nboard",
        }
    }

    /// One line for help tables.
    #[must_use]
    pub const fn about(self) -> &'static str {
        match self {
            Kind::Better => "one ply of the hand-made evaluation, opening book first",
            Kind::Engine => "the full engine: book, PVS, shared table, exact endgame",
            Kind::Gtp => "an external GTP engine, e.g. gtp:gtp-rhino -l 5",
            Kind::Nboard => {
                "an external NBoard engine, e.g. nboard:depth=12:ntest x (set depth D, default \
                 20; time: a GGF clock of S for each move to come)"
            }
        }
    }

    /// The options it takes (`gtp` takes a command instead, `nboard` a command after them).
    #[must_use]
    pub const fn options(self) -> &'static [Opt] {
        match self {
            Kind::Better => &[Opt::Book, Opt::BookRandomness, Opt::Seed],
            Kind::Engine => &Opt::ALL,
            Kind::Gtp => &[],
            Kind::Nboard => &[Opt::Depth, Opt::Time],
        }
    }
}

impl Opt {
    /// Every option, in canonical (alphabetical) order.
    pub const ALL: [Opt; 9] = [
        Opt::Book,
        Opt::BookRandomness,
        Opt::Depth,
        Opt::Eval,
        Opt::Hash,
        Opt::Seed,
        Opt::Selectivity,
        Opt::Threads,
        Opt::Time,
    ];

    /// The key.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Opt::Time => "time",
            Opt::Depth => "depth",
            Opt::Threads => "threads",
            Opt::Hash => "hash",
            Opt::Book => "book",
            Opt::Eval => "eval",
            Opt::BookRandomness => "book-randomness",
            Opt::Seed => "seed",
            Opt::Selectivity => "selectivity",
        }
    }

    /// `key=VALUE` with the value's form.
    #[must_use]
    pub const fn usage(self) -> &'static str {
        match self {
            Opt::Time => "time=S",
            Opt::Depth => "depth=D",
            Opt::Threads => "threads=N",
            Opt::Hash => "hash=MB",
            Opt::Book => "book=PATH|none",
            Opt::Eval => "eval=pattern|hand",
            Opt::BookRandomness => "book-randomness=DISCS",
            Opt::Seed => "seed=N",
            Opt::Selectivity => "selectivity=73|87|95|98|99|100",
        }
    }
}

/// The players `othbook match` knows, `(name, what it is; its options)`, for help texts and
/// errors: the classic players, then `better`, `engine` and `gtp:COMMAND`.
#[must_use]
pub fn players() -> Vec<(String, String)> {
    let classic = ClassicKind::ALL.into_iter().map(|k| {
        let name = if k == ClassicKind::Greedy {
            "simple"
        } else {
            k.name()
        };
        let what = if k == ClassicKind::Greedy {
            "one ply, most discs (also called greedy)"
        } else {
            k.about()
        };
        let usage = k.usage();
        let text = if usage.is_empty() {
            what.to_string()
        } else {
            format!("{what}; {usage}")
        };
        (name.to_string(), text)
    });
    let other = Kind::ALL.into_iter().map(|k| {
        let usage: Vec<&str> = k.options().iter().map(|o| o.usage()).collect();
        let name = match k {
            Kind::Gtp => "gtp:COMMAND".to_string(),
            Kind::Nboard => "nboard:[OPTS:]COMMAND".to_string(),
            _ => k.name().to_string(),
        };
        let text = if usage.is_empty() {
            k.about().to_string()
        } else {
            format!("{}; {}", k.about(), usage.join(" "))
        };
        (name, text)
    });
    classic.chain(other).collect()
}

/// Settings of `better` and `engine` (each takes the options its kind lists).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Settings {
    /// Time per move.
    pub time: Option<Duration>,
    /// Fixed depth.
    pub depth: Option<Depth>,
    /// Search threads.
    pub threads: Option<ThreadCount>,
    /// Table size in MiB.
    pub hash: Option<HashSize>,
    /// Opening book (as written, for the name).
    pub book: Option<String>,
    /// Evaluation.
    pub eval: Option<EvalKind>,
    /// Discs below the best a book move may be.
    pub book_randomness: Option<f64>,
    /// Seed of book choices.
    pub seed: Option<u64>,
    /// ProbCut's level in midgame searches (solves stay exact).
    pub selectivity: Option<Selectivity>,
}

/// A parsed, checked player specification.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    /// A teaching player on Othello with the disc-count heuristic (`simple` is greedy).
    Classic(AgentSpec),
    /// `better` with its settings.
    Better(Settings),
    /// `engine` with its settings.
    Engine(Settings),
    /// `gtp:COMMAND`.
    Gtp {
        /// The command line.
        command: String,
    },
    /// `nboard:[depth=D,time=S:]COMMAND`.
    Nboard {
        /// The command line.
        command: String,
        /// `depth` and `time`, the only settings it takes.
        settings: Settings,
    },
}

/// A specification that does not name a known player or has bad options.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SpecError {
    /// A classic player's kind or options.
    #[error("player {spec:?}: {error}")]
    Classic {
        /// The specification as written.
        spec: String,
        /// What is wrong.
        error: ClassicError,
    },
    /// Not a player at all.
    #[error("player {spec:?}: unknown player (known: {known})")]
    Unknown {
        /// The specification as written.
        spec: String,
        /// The players there are.
        known: String,
    },
    /// `gtp:` or `nboard:` without a command.
    #[error(
        "player {spec:?}: needs a command, e.g. gtp:gtp-rhino -l 5 or nboard:depth=12:ntest x"
    )]
    NoCommand {
        /// The specification as written.
        spec: String,
    },
    /// An option `better` or `engine` does not take, or one that is not key=value.
    #[error("player {spec:?}: unknown option {key:?} (allowed: {allowed})")]
    UnknownOption {
        /// The specification as written.
        spec: String,
        /// The key.
        key: String,
        /// The options of the kind.
        allowed: String,
    },
    /// A bad value.
    #[error("player {spec:?}: {key}: {reason}")]
    BadValue {
        /// The specification as written.
        spec: String,
        /// The key.
        key: &'static str,
        /// Why (from the value's own parser).
        reason: String,
    },
}

impl Settings {
    /// Sets `opt` from `v`; `err` makes the error for a bad value.
    fn set(
        &mut self,
        opt: Opt,
        v: &str,
        err: impl Fn(String) -> SpecError,
    ) -> Result<(), SpecError> {
        let num = |what: &str| err(format!("{v} is not a valid {what}"));
        match opt {
            Opt::Time => {
                self.time = Some(seconds_in(v, 0.001, 3600.0).map_err(|e| err(e.to_string()))?);
            }
            Opt::Depth => match v.parse::<u32>() {
                Ok(d) => match Depth::new(d) {
                    Ok(depth) => self.depth = Some(depth),
                    Err(_) => return Err(err("depth must be 1 to 60".into())),
                },
                Err(_) => return Err(num("number")),
            },
            Opt::Threads => match v.parse::<usize>() {
                Ok(t) => match ThreadCount::new(t) {
                    Ok(count) if t <= 256 => self.threads = Some(count),
                    _ => return Err(err("threads must be 1 to 256".into())),
                },
                Err(_) => return Err(num("number")),
            },
            Opt::Hash => match v.parse::<usize>() {
                Ok(h) => {
                    self.hash = Some(HashSize::new(h).map_err(|e| {
                        err(format!(
                            "{} is out of range: use 1 to {MAX_HASH_MB} MiB",
                            e.mb
                        ))
                    })?)
                }
                Err(_) => return Err(num("number")),
            },
            Opt::Book => self.book = Some(v.to_string()),
            Opt::Eval => self.eval = Some(v.parse::<EvalKind>().map_err(|e| err(e.to_string()))?),
            Opt::BookRandomness => self.book_randomness = Some(parse_randomness(v).map_err(err)?),
            Opt::Seed => self.seed = Some(v.parse().map_err(|_| num("seed"))?),
            Opt::Selectivity => {
                self.selectivity = Some(v.parse().map_err(
                    |e: crate::engine::selectivity::ParseSelectivityError| err(e.to_string()),
                )?);
            }
        }
        Ok(())
    }

    fn book(&self) -> BookSetting {
        self.book
            .as_deref()
            .map_or(BookSetting::Default, BookSetting::parse)
    }
}

fn parse_settings(spec: &str, kind: Kind, rest: &str) -> Result<Settings, SpecError> {
    let mut s = Settings::default();
    for item in rest
        .split([',', ':'])
        .map(str::trim)
        .filter(|i| !i.is_empty())
    {
        let (k, v) = item.split_once('=').unwrap_or((item, ""));
        let key = k.trim().to_ascii_lowercase();
        let unknown = || SpecError::UnknownOption {
            spec: spec.to_string(),
            key: key.clone(),
            allowed: kind
                .options()
                .iter()
                .map(|o| o.usage())
                .collect::<Vec<_>>()
                .join(" "),
        };
        let opt = kind
            .options()
            .iter()
            .copied()
            .find(|o| o.name() == key)
            .ok_or_else(unknown)?;
        if !item.contains('=') {
            return Err(SpecError::BadValue {
                spec: spec.to_string(),
                key: opt.name(),
                reason: "options are key=value".into(),
            });
        }
        s.set(opt, v.trim(), |reason| SpecError::BadValue {
            spec: spec.to_string(),
            key: opt.name(),
            reason,
        })?;
    }
    Ok(s)
}

/// Whether the text before a colon in `nboard:...` is options (`depth=12,time=0.5`) rather
/// than the start of the command: key=value items and no white space.
fn looks_like_options(text: &str) -> bool {
    let text = text.trim();
    !text.is_empty() && text.contains('=') && !text.contains(char::is_whitespace)
}

impl FromStr for PlayerSpec {
    type Err = SpecError;
    fn from_str(text: &str) -> Result<Self, SpecError> {
        let t = text.trim();
        let (kind, rest) = t.split_once(':').unwrap_or((t, ""));
        let kind = kind.trim().to_ascii_lowercase();
        let spec = text.to_string();
        match kind.as_str() {
            "gtp" if rest.trim().is_empty() => Err(SpecError::NoCommand { spec }),
            "gtp" => Ok(PlayerSpec::Gtp {
                command: rest.trim().to_string(),
            }),
            "nboard" => {
                let (settings, command) = match rest.split_once(':') {
                    Some((opts, command)) if looks_like_options(opts) => {
                        (parse_settings(t, Kind::Nboard, opts)?, command)
                    }
                    _ => (Settings::default(), rest),
                };
                if command.trim().is_empty() {
                    return Err(SpecError::NoCommand { spec });
                }
                Ok(PlayerSpec::Nboard {
                    command: command.trim().to_string(),
                    settings,
                })
            }
            "better" => Ok(PlayerSpec::Better(parse_settings(t, Kind::Better, rest)?)),
            "engine" => Ok(PlayerSpec::Engine(parse_settings(t, Kind::Engine, rest)?)),
            _ => {
                let classic = if kind == "simple" {
                    format!("greedy:{rest}")
                } else {
                    t.to_string()
                };
                let a: AgentSpec = classic.parse().map_err(|error| match error {
                    ClassicError::UnknownKind { .. } | ClassicError::Empty => SpecError::Unknown {
                        spec: spec.clone(),
                        known: players()
                            .into_iter()
                            .map(|p| p.0)
                            .collect::<Vec<_>>()
                            .join(", "),
                    },
                    error => SpecError::Classic {
                        spec: spec.clone(),
                        error,
                    },
                })?;
                if a.depth.is_some_and(|d| d > MAX_OTHELLO_DEPTH) {
                    return Err(SpecError::BadValue {
                        spec,
                        key: "depth",
                        reason: "depth must be 1 to 60".into(),
                    });
                }
                Ok(PlayerSpec::Classic(a))
            }
        }
    }
}

impl fmt::Display for Settings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sep = ':';
        for o in Opt::ALL {
            let v = match o {
                Opt::Time => self.time.map(|t| t.as_secs_f64().to_string()),
                Opt::Depth => self.depth.map(|d| d.to_string()),
                Opt::Threads => self.threads.map(|t| t.asked().to_string()),
                Opt::Hash => self.hash.map(|h| h.mb().to_string()),
                Opt::Book => self.book.clone(),
                Opt::Eval => self.eval.map(|e| e.to_string()),
                Opt::BookRandomness => self.book_randomness.map(|r| r.to_string()),
                Opt::Seed => self.seed.map(|s| s.to_string()),
                Opt::Selectivity => self.selectivity.map(|l| l.to_string()),
            };
            if let Some(v) = v {
                write!(f, "{sep}{}={v}", o.name())?;
                sep = ',';
            }
        }
        Ok(())
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Classic(a) if a.kind == ClassicKind::Greedy => f.write_str("simple"),
            PlayerSpec::Classic(a) => write!(f, "{a}"),
            PlayerSpec::Better(s) => write!(f, "better{s}"),
            PlayerSpec::Engine(s) => write!(f, "engine{s}"),
            PlayerSpec::Gtp { command } => write!(f, "gtp:{command}"),
            PlayerSpec::Nboard { command, settings } if *settings == Settings::default() => {
                write!(f, "nboard:{command}")
            }
            PlayerSpec::Nboard { command, settings } => write!(f, "nboard{settings}:{command}"),
        }
    }
}

impl PlayerSpec {
    /// The same player limited to `time` per move instead of a depth (players that take no
    /// time limit are unchanged).
    #[must_use]
    pub fn with_time(&self, time: Duration) -> PlayerSpec {
        match self {
            PlayerSpec::Classic(a) => PlayerSpec::Classic(a.with_time(time)),
            PlayerSpec::Engine(s) => PlayerSpec::Engine(Settings {
                time: Some(time),
                depth: None,
                ..s.clone()
            }),
            PlayerSpec::Nboard { command, settings } => PlayerSpec::Nboard {
                command: command.clone(),
                settings: Settings {
                    time: Some(time),
                    ..settings.clone()
                },
            },
            other => other.clone(),
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
        let book = |s: &Settings| {
            s.book().open().map_err(|source| BuildError::Book {
                spec: self.to_string(),
                source,
            })
        };
        let seed = |s: &Settings| s.seed.unwrap_or_else(Rng::fresh_seed);
        Ok(match self {
            PlayerSpec::Classic(a) => Box::new(ClassicPlayer::new(
                a.build(Discs, Rng::fresh_seed()),
                self.to_string(),
            )),
            PlayerSpec::Better(s) => Box::new(
                BetterPlayer::new(book(s)?)
                    .with_book_randomness(s.book_randomness.unwrap_or(0.0), seed(s)),
            ),
            PlayerSpec::Engine(s) => Box::new(
                EnginePlayer::new(
                    s.threads.unwrap_or(ThreadCount::ONE),
                    s.hash.unwrap_or(HashSize::of(64)),
                    s.time,
                    s.depth,
                    s.eval.unwrap_or_default(),
                )
                .map_err(|e| {
                    BuildError::Start(PlayerError::External {
                        engine: self.to_string(),
                        message: e.to_string(),
                    })
                })?
                .with_selectivity(s.selectivity.unwrap_or_default())
                .with_book(book(s)?)
                .with_book_randomness(s.book_randomness.unwrap_or(0.0), seed(s)),
            ),
            PlayerSpec::Gtp { command } => {
                Box::new(GtpPlayer::spawn_with_timeout(command, engine_timeout)?)
            }
            PlayerSpec::Nboard { command, settings } => Box::new(NboardPlayer::spawn(
                command,
                NboardLimits {
                    depth: settings.depth.map_or(DEFAULT_DEPTH, Depth::plies),
                    time_per_move: settings.time,
                },
                engine_timeout,
            )?),
        })
    }
}

/// A player that could not be created.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// Bad specification.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// The player's opening book could not be opened.
    #[error("player {spec:?}: book")]
    Book {
        /// The specification.
        spec: String,
        /// Why.
        source: crate::book::BookError,
    },
    /// The player failed to start.
    #[error(transparent)]
    Start(#[from] PlayerError),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_display() {
        for (text, canon) in [
            ("alphabeta:depth=4", "alphabeta:depth=4"),
            ("gtp:gtp-rhino -l 5", "gtp:gtp-rhino -l 5"),
            ("mcts:time=0.5,c=1", "mcts:c=1,time=0.5"),
            ("simple", "simple"),
            ("greedy", "simple"),
            ("engine:time=0.1,eval=hand", "engine:eval=hand,time=0.1"),
            ("engine:depth=6,eval=pattern", "engine:depth=6,eval=pattern"),
            (
                "engine:depth=5,threads=1,book=x.book",
                "engine:book=x.book,depth=5,threads=1",
            ),
            (
                "engine:book-randomness=1.5,seed=3",
                "engine:book-randomness=1.5,seed=3",
            ),
            (
                "better:book-randomness=0,seed=1",
                "better:book-randomness=0,seed=1",
            ),
            (
                "engine:time=0.1,selectivity=73",
                "engine:selectivity=73%,time=0.1",
            ),
            ("engine:selectivity=exact", "engine:selectivity=exact"),
            ("nboard:ntest x", "nboard:ntest x"),
            (
                "nboard:time=0.5,depth=12:./ntest x",
                "nboard:depth=12,time=0.5:./ntest x",
            ),
            (
                "nboard:othbook nboard --time=1",
                "nboard:othbook nboard --time=1",
            ),
        ] {
            let s: PlayerSpec = text.parse().unwrap();
            assert_eq!(s.to_string(), canon, "{text}");
            assert_eq!(canon.parse::<PlayerSpec>().unwrap(), s);
        }
        let g: PlayerSpec = "gtp:gtp-rhino -l 5".parse().unwrap();
        assert_eq!(
            g,
            PlayerSpec::Gtp {
                command: "gtp-rhino -l 5".into()
            }
        );
    }

    #[test]
    fn the_engine_player_searches_at_its_selectivity() {
        use crate::play::Budget;
        let spec: PlayerSpec = "engine:time=0.1,selectivity=95".parse().unwrap();
        let PlayerSpec::Engine(s) = &spec else {
            panic!("{spec:?}")
        };
        assert_eq!(s.selectivity, Some("95".parse().unwrap()));
        let p = EnginePlayer::new(
            ThreadCount::ONE,
            HashSize::of(1),
            s.time,
            None,
            EvalKind::Hand,
        )
        .unwrap()
        .with_selectivity(s.selectivity.unwrap());
        assert_eq!(
            p.limits(Budget::default()).selectivity,
            "95".parse().unwrap()
        );
        assert!(p.name().contains("selectivity=95%"), "{}", p.name());
        let plain = EnginePlayer::new(
            ThreadCount::ONE,
            HashSize::of(1),
            s.time,
            None,
            EvalKind::Hand,
        )
        .unwrap();
        assert_eq!(
            plain.limits(Budget::default()).selectivity,
            Selectivity::default()
        );
        assert!(!plain.name().contains("selectivity"), "{}", plain.name());
    }

    #[test]
    fn every_listed_player_is_accepted_as_listed() {
        for (name, _) in players() {
            let spec = name
                .replace("[OPTS:]", "depth=4:")
                .replace("COMMAND", "gtp-rhino");
            assert!(spec.parse::<PlayerSpec>().is_ok(), "{spec}");
        }
    }

    #[test]
    fn bad_specs_are_rejected() {
        for bad in [
            "",
            "nobody",
            "alphabeta:depth=0",
            "alphabeta:depth=x",
            "alphabeta:depth=99",
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
            "better:time=1",
            "engine:seed=x",
            "engine:selectivity=50",
            "engine:selectivity",
            "better:selectivity=73",
            "nboard:selectivity=73:ntest",
            "engine:threads=0",
            "engine:hash=0",
            "engine:hash=65537",
            "alphabeta:time=1e300",
            "nboard:",
            "nboard:depth=12:",
            "nboard:depth=0:ntest",
            "nboard:depth=12,threads=2:ntest",
            "nboard:time=0:ntest",
        ] {
            assert!(bad.parse::<PlayerSpec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn unknown_players_are_told_the_whole_list() {
        let e = "nosuch".parse::<PlayerSpec>().unwrap_err().to_string();
        for kind in [
            "random",
            "simple",
            "better",
            "alphabeta",
            "mcts",
            "engine",
            "gtp",
            "nboard",
        ] {
            assert!(e.contains(kind), "{e}");
        }
    }
}
