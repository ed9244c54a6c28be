//! A player backed by an external GTP engine run as a subprocess (e.g. `gtp-rhino -l 5`).

use crate::board::{Color, Move, Position};
use crate::play::subprocess::{excerpt, Link, Process, Silence};
use crate::play::{Budget, Choice, EngineFault, GameState, Player, PlayerError};
use crate::wire::gtp::{parse_vertex, response_head, Command, Verb};
use std::time::{Duration, Instant};

/// How long an engine may take by default to answer a command other than `genmove`: the
/// start-up handshake (`name`, `list_commands`), `boardsize`, `clear_board`, `play`,
/// `time_left`. It is fixed rather than derived from the match clock because start-up is
/// dominated by loading weights and books, which does not shrink with a fast clock, while
/// the other commands are bookkeeping that a working engine answers at once: the limit only
/// has to tell a hung engine from a slow-loading one.
pub const DEFAULT_COMMAND_TIMEOUT: Duration = Duration::from_secs(20);

/// An external engine speaking GTP on stdin/stdout. An engine that hangs, exits or answers
/// something that is not GTP is out of order: its commands fail at once from then on (a late
/// answer would otherwise be read as the answer to the next command), and the next
/// [`Player::new_game`] starts it again.
pub struct GtpPlayer {
    link: Link,
    /// Limit for every command but `genmove`, which the clock governs.
    timeout: Duration,
    /// Moves the engine has seen, in order (its view of the game).
    sent: Vec<Move>,
    known: Vec<String>,
    engine_name: String,
}

impl GtpPlayer {
    /// Starts `command` (split on white space; no shell) and checks that it speaks GTP,
    /// with [`DEFAULT_COMMAND_TIMEOUT`] for commands other than `genmove`.
    pub fn spawn(command: &str) -> Result<GtpPlayer, PlayerError> {
        Self::spawn_with_timeout(command, DEFAULT_COMMAND_TIMEOUT)
    }

    /// Starts `command` and checks that it speaks GTP; the engine must answer every command
    /// other than `genmove` (the handshake included) within `timeout`.
    pub fn spawn_with_timeout(command: &str, timeout: Duration) -> Result<GtpPlayer, PlayerError> {
        let mut p = GtpPlayer {
            link: Link::new(command, "quit"),
            timeout,
            sent: Vec::new(),
            known: Vec::new(),
            engine_name: String::new(),
        };
        p.start()?;
        Ok(p)
    }

    /// (Re)starts the process and runs the handshake.
    fn start(&mut self) -> Result<(), PlayerError> {
        self.sent.clear();
        self.link.start()?;
        // Engines need not implement `name`: an error answer is fine, silence or nonsense not.
        self.engine_name = match self.request(&Command::Name.to_string(), self.timeout)? {
            Ok(name) if !name.is_empty() => name,
            _ => self.link.command.clone(),
        };
        let list = self.ask(&Command::ListCommands.to_string())?;
        self.known = list.lines().map(|l| l.trim().to_string()).collect();
        Ok(())
    }

    fn fail(&self, message: impl Into<String>) -> PlayerError {
        self.link.fail(message)
    }

    /// Sends one command and returns the answer's text, or `Err` with the engine's error.
    /// The outer error means the engine is out of order.
    fn request(
        &mut self,
        cmd: &str,
        timeout: Duration,
    ) -> Result<Result<String, String>, PlayerError> {
        let answer = exchange(self.link.process(cmd)?, cmd, timeout);
        answer.map_err(|fault| self.link.broke(fault))
    }

    fn ask(&mut self, cmd: &str) -> Result<String, PlayerError> {
        match self.request(cmd, self.timeout)? {
            Ok(t) => Ok(t),
            Err(e) => Err(self.fail(format!("{cmd:?} failed: {e}"))),
        }
    }

    fn send_move(&mut self, color: Color, mv: Move) -> Result<(), PlayerError> {
        let cmd = Command::Play(color, mv).to_string();
        match self.request(&cmd, self.timeout)? {
            Ok(_) => Ok(()),
            // Engines that infer passes (gtp-rhino) reject an explicit one: that is fine.
            Err(_) if mv.is_pass() => Ok(()),
            Err(e) => Err(self.fail(format!("{cmd:?} rejected: {e}"))),
        }
    }

    /// Brings the engine's game up to `game` (replaying from scratch if it diverged).
    fn sync(&mut self, game: &GameState) -> Result<(), PlayerError> {
        if game.moves.len() < self.sent.len() || game.moves[..self.sent.len()] != self.sent[..] {
            self.reset(&game.start)?;
        }
        let mut pos = game.start;
        for (i, mv) in game.moves.iter().enumerate() {
            if i >= self.sent.len() {
                self.send_move(pos.side, *mv)?;
                self.sent.push(*mv);
            }
            pos = pos
                .play(*mv)
                .map_err(|e| self.fail(format!("game history is illegal: {e}")))?;
        }
        Ok(())
    }

    fn reset(&mut self, start: &Position) -> Result<(), PlayerError> {
        if *start != Position::START {
            return Err(self.fail("GTP engines start from the standard position only"));
        }
        let _ = self.request(&Command::Boardsize(8).to_string(), self.timeout)?;
        self.ask(&Command::ClearBoard.to_string())?;
        self.sent.clear();
        Ok(())
    }
}

/// Sends `cmd` and reads its answer: the text, or `Err` with the engine's error; the outer
/// error says why the engine is out of order.
fn exchange(
    process: &mut Process,
    cmd: &str,
    timeout: Duration,
) -> Result<Result<String, String>, EngineFault> {
    process.send(cmd)?;
    let deadline = Instant::now() + timeout;
    let mut answer: Option<(bool, String)> = None;
    loop {
        let line = match process.recv(deadline) {
            Ok(l) => l,
            Err(Silence::Timeout) => {
                return Err(EngineFault::Timeout {
                    asked: cmd.to_string(),
                    waited: timeout,
                })
            }
            Err(Silence::Closed) => {
                return Err(EngineFault::Exited {
                    asked: cmd.to_string(),
                    status: process.exit_note(),
                })
            }
        };
        let line = line.as_str();
        match &mut answer {
            None if line.trim().is_empty() => continue,
            None => {
                // Anything but a response means we are not talking to a GTP engine, or
                // have lost track of its answers.
                let Some((ok, rest)) = response_head(line) else {
                    return Err(EngineFault::Protocol {
                        asked: cmd.to_string(),
                        answer: excerpt(line),
                        why: "which is not GTP (answers start with '=' or '?')",
                    });
                };
                answer = Some((ok, rest.to_string()));
            }
            Some(_) if line.trim().is_empty() => break,
            Some((_, text)) => {
                text.push('\n');
                text.push_str(line);
            }
        }
    }
    let (ok, text) = answer.unwrap_or((false, String::new()));
    Ok(if ok { Ok(text) } else { Err(text) })
}

impl Player for GtpPlayer {
    fn name(&self) -> String {
        format!("gtp:{}", self.link.command)
    }

    fn new_game(&mut self, start: &Position) -> Result<(), PlayerError> {
        if let Some(why) = self.link.restart_reason() {
            self.start()
                .map_err(|e| self.link.restart_failed(&e, &why))?;
        }
        self.reset(start)
    }

    fn choose(&mut self, game: &GameState, budget: Budget) -> Result<Choice, PlayerError> {
        self.sync(game)?;
        let side = game.position.side;
        if let Some(hard) = budget.hard {
            if self.known.iter().any(|c| c == Verb::TimeLeft.name()) {
                let cmd = Command::TimeLeft {
                    color: side,
                    time: hard.max(Duration::from_secs(1)),
                    stones: 0,
                };
                let _ = self.request(&cmd.to_string(), self.timeout)?;
            }
        }
        // Give the engine its whole clock plus a grace period: the referee judges overruns.
        let wait = budget
            .hard
            .map_or(Duration::from_secs(3600), |h| h + Duration::from_secs(2));
        let cmd = Command::Genmove(side).to_string();
        let text = match self.request(&cmd, wait)? {
            Ok(t) => t,
            Err(e) => return Err(self.fail(format!("{cmd:?} failed: {e}"))),
        };
        let word = text.split_whitespace().next().unwrap_or("");
        let Some(mv) = parse_vertex(word) else {
            return Err(self.fail(format!("unreadable move {word:?} from genmove")));
        };
        // The engine has played its own move on its board.
        self.sent.push(mv);
        Ok(Choice { mv, nodes: 0 })
    }

    fn game_over(&mut self, game: &GameState) {
        let _ = self.sync(game);
    }
}

impl GtpPlayer {
    /// The engine's own name (from GTP `name`).
    #[must_use]
    pub fn engine_name(&self) -> &str {
        &self.engine_name
    }
}
