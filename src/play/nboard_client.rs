//! A player backed by an external NBoard engine run as a subprocess (e.g. NTest, Edax, or
//! `othbook nboard`): `nboard 2`, `set depth D`, `set game GGF`, `move F5`, `go` answered by
//! `=== F5/eval/seconds`.
//!
//! The engine's search is never disturbed: NBoard engines abort a search on any input line,
//! so nothing is sent between `go` and its answer. Everything the engine writes that is not
//! the answer (banners, `status`, `search`, `nodestats`, `set myname`, `pong`) is skipped, but
//! its last lines are kept for error messages.

use crate::board::{Move, Position, Square};
use crate::play::subprocess::{excerpt, Link, Silence};
use crate::play::{Budget, Choice, EngineFault, GameState, Player, PlayerError};
use crate::transcript::write::write_text;
use crate::transcript::{Format, GameRecord, Location, SourceRef};
use std::time::{Duration, Instant};

/// Midgame depth sent with `set depth` when the specification gives none (NBoard engines
/// cannot search before they are given one).
pub const DEFAULT_DEPTH: u32 = 20;

/// How long past its clock an engine's `go` may run before it counts as hung (the referee
/// judges the overrun itself; this only frees the match from a dead engine).
const GO_GRACE: Duration = Duration::from_secs(2);

/// How long a `go` may take when nothing limits the engine but its depth.
const GO_UNLIMITED: Duration = Duration::from_secs(3600);

/// What the player tells the engine about its limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NboardLimits {
    /// Midgame depth for `set depth`.
    pub depth: u32,
    /// Equal time per move: each `go` comes with a GGF clock giving the side to move this
    /// much for each of its moves to come. `None`: the match's clock, if any, is passed on.
    pub time_per_move: Option<Duration>,
}

/// An external engine speaking NBoard on stdin/stdout. An engine that hangs, exits or answers
/// nonsense is out of order: its commands fail at once from then on, and the next
/// [`Player::new_game`] starts it again.
pub struct NboardPlayer {
    link: Link,
    limits: NboardLimits,
    /// Limit for the start-up and `ping`, which a working engine answers at once.
    timeout: Duration,
    /// The game as the engine knows it: its start and moves.
    engine_game: Option<(Position, Vec<Move>)>,
    /// Last `ping` number sent.
    ping: u64,
    engine_name: String,
}

/// The move word of a `===` answer: `=== F5/1.00/0.5`, `=== f5`, `=== d6 -1.00 0.0`, `=== PA`.
fn parse_answer(line: &str) -> Option<Move> {
    let rest = line.strip_prefix("===")?.trim();
    let word = rest.split(['/', ' ', '\t']).next()?;
    if word.eq_ignore_ascii_case("pa") || word.eq_ignore_ascii_case("pass") {
        return Some(Move::Pass);
    }
    word.parse::<Square>().ok().map(Move::Play)
}

/// A move as NBoard writes it: `F5`, `PA`.
fn move_word(mv: Move) -> String {
    match mv {
        Move::Play(sq) => sq.to_string().to_uppercase(),
        Move::Pass => "PA".into(),
    }
}

/// A clock value as whole seconds (NTest reads `.` in a time as a day separator, so no
/// decimals), at least one.
fn clock_seconds(t: Duration) -> u64 {
    t.as_secs_f64().round().max(1.0) as u64
}

/// The `set game` text for a game, with a clock (`TI`, both sides: a clock for one side only
/// is no clock to some engines) when one is given.
fn ggf(start: &Position, moves: &[Move], clock: Option<Duration>) -> String {
    let record = GameRecord {
        start: *start,
        moves: moves.to_vec(),
        result: None,
        black: Some("black".into()),
        white: Some("white".into()),
        event: None,
        place: Some("othbook match".into()),
        date: None,
        year: None,
        source: SourceRef {
            file: std::sync::Arc::from("match"),
            location: Location::Record(1),
        },
        complete: false,
    };
    let mut out = Vec::new();
    // A game the engine is asked to move in is a legal game, which GGF can always write.
    let _ = write_text(&[record], Format::Ggf, &mut out);
    let text = String::from_utf8_lossy(&out).trim().to_string();
    match clock {
        // `TY[8]` cannot occur earlier: property values lose their `]` when written.
        Some(left) => text.replacen("TY[8]", &format!("TI[{}]TY[8]", clock_seconds(left)), 1),
        None => text,
    }
}

impl NboardPlayer {
    /// Starts `command` (split on white space; no shell), tells it the protocol version and
    /// depth, and checks that it answers `ping` within `timeout`.
    pub fn spawn(
        command: &str,
        limits: NboardLimits,
        timeout: Duration,
    ) -> Result<NboardPlayer, PlayerError> {
        let mut p = NboardPlayer {
            link: Link::new(command, "quit"),
            limits,
            timeout,
            engine_game: None,
            ping: 0,
            engine_name: String::new(),
        };
        p.start()?;
        Ok(p)
    }

    /// The engine's own name (from `set myname`), or its command.
    #[must_use]
    pub fn engine_name(&self) -> &str {
        &self.engine_name
    }

    fn broke(&mut self, fault: EngineFault) -> PlayerError {
        self.link.broke(fault)
    }

    /// (Re)starts the process and runs the handshake.
    fn start(&mut self) -> Result<(), PlayerError> {
        self.engine_game = None;
        self.engine_name = self.link.command.clone();
        self.link.start()?;
        self.send("nboard 2")?;
        self.send(&format!("set depth {}", self.limits.depth))?;
        self.sync_ping()
    }

    fn send(&mut self, line: &str) -> Result<(), PlayerError> {
        self.link.send(line)
    }

    /// Waits for the line `done` accepts, skipping the others, until `deadline`; `asked` names
    /// the command in errors.
    fn wait_for<T>(
        &mut self,
        asked: &str,
        deadline: Instant,
        waited: Duration,
        mut done: impl FnMut(&str) -> Option<T>,
    ) -> Result<T, PlayerError> {
        loop {
            let process = self.link.process(asked)?;
            match process.recv(deadline) {
                Ok(line) => {
                    let line = line.trim();
                    if let Some(name) = line.strip_prefix("set myname ") {
                        self.engine_name = name.trim().to_string();
                    }
                    if let Some(v) = done(line) {
                        return Ok(v);
                    }
                }
                Err(Silence::Timeout) => {
                    return Err(self.broke(EngineFault::Timeout {
                        asked: asked.to_string(),
                        waited,
                    }))
                }
                Err(Silence::Closed) => {
                    let status = process.exit_note();
                    return Err(self.broke(EngineFault::Exited {
                        asked: asked.to_string(),
                        status,
                    }));
                }
            }
        }
    }

    /// `ping N`, answered by `pong N` once the engine has read everything before it.
    fn sync_ping(&mut self) -> Result<(), PlayerError> {
        self.ping += 1;
        let cmd = format!("ping {}", self.ping);
        self.send(&cmd)?;
        let want = format!("pong {}", self.ping);
        let timeout = self.timeout;
        self.wait_for(&cmd, Instant::now() + timeout, timeout, |l| {
            (l == want).then_some(())
        })
    }

    /// Brings the engine's game up to `game`: `move` for moves after the ones it has, a new
    /// `set game` otherwise or when the clock must be stated.
    fn sync(&mut self, game: &GameState, clock: Option<Duration>) -> Result<(), PlayerError> {
        let known = match &self.engine_game {
            Some((start, moves))
                if clock.is_none()
                    && *start == game.start
                    && game.moves.len() >= moves.len()
                    && game.moves[..moves.len()] == moves[..] =>
            {
                Some(moves.len())
            }
            _ => None,
        };
        match known {
            Some(n) => {
                for mv in &game.moves[n..] {
                    self.send(&format!("move {}", move_word(*mv)))?;
                }
            }
            None => {
                let text = ggf(&game.start, &game.moves, clock);
                self.send(&format!("set game {text}"))?;
            }
        }
        self.engine_game = Some((game.start, game.moves.clone()));
        Ok(())
    }

    /// The clock the side to move is shown: its time per move for each of its moves to come,
    /// or what the match clock leaves it.
    fn clock(&self, game: &GameState, budget: Budget) -> Option<Duration> {
        match self.limits.time_per_move {
            Some(t) => {
                let to_come = game.position.board.empty_count().div_ceil(2).max(1);
                Some(t.saturating_mul(to_come))
            }
            None => budget.hard,
        }
    }
}

impl Player for NboardPlayer {
    fn name(&self) -> String {
        format!("nboard:{}", self.link.command)
    }

    fn new_game(&mut self, _start: &Position) -> Result<(), PlayerError> {
        if let Some(why) = self.link.restart_reason() {
            self.start()
                .map_err(|e| self.link.restart_failed(&e, &why))?;
        }
        self.engine_game = None;
        Ok(())
    }

    fn choose(&mut self, game: &GameState, budget: Budget) -> Result<Choice, PlayerError> {
        let clock = self.clock(game, budget);
        self.sync(game, clock)?;
        self.send("go")?;
        // The engine's whole clock plus a grace period: the referee judges overruns.
        let wait = match (clock, budget.hard) {
            (None, None) => GO_UNLIMITED,
            (c, h) => c.unwrap_or_default().max(h.unwrap_or_default()) + GO_GRACE,
        };
        let mut nodes = 0;
        let answer = self.wait_for("go", Instant::now() + wait, wait, |line| {
            if let Some(stats) = line.strip_prefix("nodestats ") {
                nodes = stats
                    .split_whitespace()
                    .next()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(nodes);
            }
            line.starts_with("===").then(|| line.to_string())
        })?;
        let Some(mv) = parse_answer(&answer) else {
            return Err(self.broke(EngineFault::Protocol {
                asked: "go".into(),
                answer: excerpt(&answer),
                why: "which has no move (expected e.g. \"=== F5/0.50/1.2\")",
            }));
        };
        Ok(Choice { mv, nodes })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Color;
    use crate::wire::ggf_clock::GameClock;
    use crate::wire::nboard::parse_ggf_game;

    #[test]
    fn answers_in_every_spelling() {
        let f5 = Move::Play("f5".parse().unwrap());
        for line in ["=== F5/1.00/0.5", "=== f5", "=== F5 -1.00 0.0", "===  F5/"] {
            assert_eq!(parse_answer(line), Some(f5), "{line}");
        }
        assert_eq!(parse_answer("=== PA"), Some(Move::Pass));
        for bad in ["=== ", "=== Z9/1/1", "== F5", "status F5"] {
            assert_eq!(parse_answer(bad), None, "{bad}");
        }
    }

    #[test]
    fn set_game_text_reads_back_with_its_clock() {
        let start = Position::START;
        let moves: Vec<Move> = crate::board::parse_moves("f5d6c3").unwrap();
        let text = ggf(&start, &moves, Some(Duration::from_secs(90)));
        assert_eq!(parse_ggf_game(&text).unwrap(), (start, moves.clone()));
        let clock = GameClock::from_ggf(&text).unwrap();
        assert_eq!(clock.left(Color::White), Duration::from_secs(90));
        let plain = ggf(&start, &moves, None);
        assert!(!plain.contains("TI["), "{plain}");
        assert_eq!(clock_seconds(Duration::from_millis(200)), 1);
        assert_eq!(clock_seconds(Duration::from_millis(2600)), 3);
    }

    /// The fault of an engine that cannot start, never answers within `wait`, or exits at once.
    fn fault_of(command: &str, wait: Duration) -> EngineFault {
        let limits = NboardLimits {
            depth: 4,
            time_per_move: None,
        };
        match NboardPlayer::spawn(command, limits, wait) {
            Err(PlayerError::Engine { engine, fault, .. }) => {
                assert_eq!(engine, command);
                fault
            }
            Err(e) => panic!("{command}: untyped error {e}"),
            Ok(_) => panic!("{command}: started"),
        }
    }

    #[test]
    fn failures_are_typed() {
        // Long enough for `true` to have exited on a loaded machine; only `sleep` waits it out.
        let long = Duration::from_secs(120);
        assert!(matches!(
            fault_of("/nonexistent/engine x", long),
            EngineFault::Start { .. }
        ));
        assert_eq!(
            fault_of("sleep 100", Duration::from_millis(300)),
            EngineFault::Timeout {
                asked: "ping 1".into(),
                waited: Duration::from_millis(300)
            }
        );
        match fault_of("true", long) {
            EngineFault::Exited { status, .. } | EngineFault::ExitedBefore { status, .. } => {
                assert!(status.contains("exit status: 0"), "{status}");
            }
            f => panic!("{f:?}"),
        }
    }
}
