//! A player backed by an external GTP engine run as a subprocess (e.g. `gtp-rhino -l 5`).

use crate::board::{Color, Move, Position, Square};
use crate::play::{Budget, Choice, GameState, Player, PlayerError};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

/// How long an engine may take to answer a command that is not a move.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(30);

/// An external engine speaking GTP on stdin/stdout.
pub struct GtpPlayer {
    command: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Moves the engine has seen, in order (its view of the game).
    sent: Vec<Move>,
    known: Vec<String>,
    engine_name: String,
}

fn color_word(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// `program` itself, or Debian's games folder copy when it is not on the PATH (where
/// `gtp-rhino` lives, and which is not on root's PATH).
fn resolve_program(program: &str) -> std::path::PathBuf {
    let on_path = std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(program).is_file()));
    let games = std::path::Path::new("/usr/games").join(program);
    if !program.contains('/') && !on_path && games.is_file() {
        games
    } else {
        std::path::PathBuf::from(program)
    }
}

impl GtpPlayer {
    /// Starts `command` (split on white space; no shell) and checks that it speaks GTP.
    pub fn spawn(command: &str) -> Result<GtpPlayer, PlayerError> {
        let err = |m: String| PlayerError::External {
            engine: command.to_string(),
            message: m,
        };
        let mut words = command.split_whitespace();
        let program = words.next().ok_or_else(|| err("empty command".into()))?;
        let mut child = Command::new(resolve_program(program))
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| err(format!("cannot start: {e}")))?;
        let stdin = child.stdin.take().ok_or_else(|| err("no stdin".into()))?;
        let stdout = child.stdout.take().ok_or_else(|| err("no stdout".into()))?;
        let (tx, rx) = mpsc::channel();
        // A reader thread lets every wait have a timeout, so a hung engine cannot hang us.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut p = GtpPlayer {
            command: command.to_string(),
            child,
            stdin,
            lines: rx,
            sent: Vec::new(),
            known: Vec::new(),
            engine_name: String::new(),
        };
        p.engine_name = p.ask("name").unwrap_or_else(|_| command.to_string());
        let list = p.ask("list_commands")?;
        p.known = list.lines().map(|l| l.trim().to_string()).collect();
        Ok(p)
    }

    fn fail(&self, message: impl Into<String>) -> PlayerError {
        PlayerError::External {
            engine: self.command.clone(),
            message: message.into(),
        }
    }

    /// Sends one command and returns the answer's text, or `Err` with the engine's error.
    fn request(
        &mut self,
        cmd: &str,
        timeout: Duration,
    ) -> Result<Result<String, String>, PlayerError> {
        writeln!(self.stdin, "{cmd}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| self.fail(format!("cannot send {cmd:?}: {e}")))?;
        let deadline = std::time::Instant::now() + timeout;
        let mut answer: Option<(bool, String)> = None;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(l) => l,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(self.fail(format!("no answer to {cmd:?} within {timeout:?}")))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.fail(format!("exited while answering {cmd:?}")))
                }
            };
            let line = line.trim_end_matches('\r');
            match &mut answer {
                None if line.trim().is_empty() => continue,
                None => {
                    let ok = line.starts_with('=');
                    if !ok && !line.starts_with('?') {
                        continue; // chatter before the answer
                    }
                    let rest = line[1..]
                        .trim_start_matches(|c: char| c.is_ascii_digit())
                        .trim();
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

    fn ask(&mut self, cmd: &str) -> Result<String, PlayerError> {
        match self.request(cmd, COMMAND_TIMEOUT)? {
            Ok(t) => Ok(t),
            Err(e) => Err(self.fail(format!("{cmd:?} failed: {e}"))),
        }
    }

    fn send_move(&mut self, color: Color, mv: Move) -> Result<(), PlayerError> {
        let cmd = format!("play {} {}", color_word(color), mv);
        match self.request(&cmd, COMMAND_TIMEOUT)? {
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
        let _ = self.request("boardsize 8", COMMAND_TIMEOUT)?;
        self.ask("clear_board")?;
        self.sent.clear();
        Ok(())
    }
}

impl Player for GtpPlayer {
    fn name(&self) -> String {
        format!("gtp:{}", self.command)
    }

    fn new_game(&mut self, start: &Position) -> Result<(), PlayerError> {
        self.reset(start)
    }

    fn choose(&mut self, game: &GameState, budget: Budget) -> Result<Choice, PlayerError> {
        self.sync(game)?;
        let side = game.position.side;
        if let Some(hard) = budget.hard {
            if self.known.iter().any(|c| c == "time_left") {
                let secs = hard.as_secs().max(1);
                let _ = self.request(
                    &format!("time_left {} {secs} 0", color_word(side)),
                    COMMAND_TIMEOUT,
                )?;
            }
        }
        // Give the engine its whole clock plus a grace period: the referee judges overruns.
        let wait = budget
            .hard
            .map_or(Duration::from_secs(3600), |h| h + Duration::from_secs(2));
        let cmd = format!("genmove {}", color_word(side));
        let text = match self.request(&cmd, wait)? {
            Ok(t) => t,
            Err(e) => return Err(self.fail(format!("{cmd:?} failed: {e}"))),
        };
        let word = text.split_whitespace().next().unwrap_or("");
        let mv = if word.eq_ignore_ascii_case("pass") {
            Move::Pass
        } else {
            match word.parse::<Square>() {
                Ok(sq) => Move::Play(sq),
                Err(_) => return Err(self.fail(format!("unreadable move {word:?} from genmove"))),
            }
        };
        // The engine has played its own move on its board.
        self.sent.push(mv);
        Ok(Choice { mv, nodes: 0 })
    }

    fn game_over(&mut self, game: &GameState) {
        let _ = self.sync(game);
    }
}

impl Drop for GtpPlayer {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        for _ in 0..20 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl GtpPlayer {
    /// The engine's own name (from GTP `name`).
    #[must_use]
    pub fn engine_name(&self) -> &str {
        &self.engine_name
    }
}
