//! The Go Text Protocol (as used for Othello by GRhino, Quarry and match tools), server side.
//!
//! Commands are read into [`Command`]s by the wire code shared with the client
//! ([`crate::wire::gtp`]); the list `list_commands` gives is that module's [`Verb`]s.

use crate::board::{Color, Move, Position};
use crate::play::clock::{Clock, TimeControl};
use crate::play::{Budget, GameState, Player};
use crate::wire::gtp::{split_line, vertex, write_response, Command, Verb};
use crate::wire::line::{read_line_lossy, WireLine, MAX_LINE};
use crate::wire::seconds::percent_of;
use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

/// A GTP session: the game, the player that answers `genmove`, and the clocks.
pub struct GtpServer {
    player: Box<dyn Player>,
    game: GameState,
    /// Per-move thinking time when no clock is set.
    move_time: Duration,
    /// Both sides' clocks from `time_settings`, charged with our own thinking time.
    clocks: Option<[Clock; 2]>,
    /// Remaining time and stones per colour, from `time_left`; they override the clocks
    /// until the next `time_settings` or `clear_board`.
    left: [Option<(Duration, u32)>; 2],
}

enum Reply {
    Ok(String),
    Err(String),
    Quit,
}

fn side(color: Color) -> usize {
    usize::from(color == Color::White)
}

impl GtpServer {
    /// A session where `player` chooses moves, thinking `move_time` per move without a clock.
    #[must_use]
    pub fn new(player: Box<dyn Player>, move_time: Duration) -> Self {
        GtpServer {
            player,
            game: GameState::new(Position::START),
            move_time,
            clocks: None,
            left: [None, None],
        }
    }

    /// Reads commands from `input` until `quit` or end of input, answering on `output`.
    /// Nothing but protocol is written to `output`; diagnostics go to `diag`.
    pub fn serve(
        &mut self,
        mut input: impl BufRead,
        output: &mut impl Write,
        diag: &mut impl Write,
    ) -> io::Result<()> {
        if let Err(e) = self.player.new_game(&self.game.start) {
            writeln!(diag, "othbook gtp: {e}")?;
        }
        let mut buf = Vec::new();
        while let Some(line) = read_line_lossy(&mut input, &mut buf)? {
            let line = match line {
                WireLine::Text(line) => line,
                WireLine::TooLong => {
                    let why = format!("line longer than {} MiB: ignored", MAX_LINE >> 20);
                    write_response(output, None, false, &why)?;
                    output.flush()?;
                    continue;
                }
            };
            let Some((id, name, args)) = split_line(&line) else {
                continue;
            };
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let reply = match Command::parse(&name, &args) {
                Ok(cmd) => self.handle(cmd, diag),
                Err(e) => Reply::Err(e.to_string()),
            };
            match reply {
                Reply::Ok(text) => write_response(output, id, true, &text)?,
                Reply::Err(text) => write_response(output, id, false, &text)?,
                Reply::Quit => {
                    write_response(output, id, true, "")?;
                    output.flush()?;
                    return Ok(());
                }
            }
            output.flush()?;
        }
        Ok(())
    }

    /// Plays `mv` for `color`, inserting the opponent's pass when it has no move.
    fn play_as(&mut self, color: Color, mv: Move) -> Result<(), String> {
        let pos = self.game.position;
        if pos.side != color {
            if mv.is_pass() {
                // The other side is to move: a pass by `color` now means nothing to record.
                return Err("illegal move".into());
            }
            if !pos.board.must_pass() {
                return Err("illegal move (not this colour's turn)".into());
            }
            self.game
                .play(Move::Pass)
                .map_err(|e| format!("illegal move ({e})"))?;
        }
        self.game
            .play(mv)
            .map_err(|e| format!("illegal move ({e})"))
    }

    fn budget(&self, color: Color) -> Budget {
        let empties = self.game.position.board.empty_count();
        if let Some((left, stones)) = self.left[side(color)] {
            let target = if stones > 0 {
                percent_of(left, 85) / stones
            } else {
                left / ((empties / 2).max(1) + 2)
            };
            return Budget {
                target: Some(target.min(left / 2)),
                hard: Some(left),
            };
        }
        if let Some(clocks) = &self.clocks {
            return clocks[side(color)].budget(empties);
        }
        Budget {
            target: Some(self.move_time),
            hard: None,
        }
    }

    /// Charges `used` to `color`'s clock, so that the next budget shrinks even when the
    /// controller sends no `time_left`.
    fn charge(&mut self, color: Color, used: Duration) {
        if let Some((left, _)) = &mut self.left[side(color)] {
            *left = left.saturating_sub(used);
        }
        if let Some(clocks) = &mut self.clocks {
            // An overrun is the controller's to judge; the clock just stays empty.
            let _ = clocks[side(color)].spend(used);
        }
    }

    fn handle(&mut self, cmd: Command, diag: &mut impl Write) -> Reply {
        let done = Reply::Ok(String::new());
        match cmd {
            Command::ProtocolVersion => Reply::Ok("2".into()),
            Command::Name => Reply::Ok("othbook".into()),
            Command::Version => Reply::Ok(env!("CARGO_PKG_VERSION").into()),
            Command::KnownCommand(name) => Reply::Ok(Verb::from_name(&name).is_some().to_string()),
            Command::ListCommands => Reply::Ok(
                Verb::ALL
                    .iter()
                    .map(|v| v.name())
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
            Command::Quit => Reply::Quit,
            Command::Boardsize(8) => done,
            Command::Boardsize(_) => Reply::Err("unacceptable size".into()),
            Command::ClearBoard => {
                self.game = GameState::new(Position::START);
                self.left = [None, None];
                for c in self.clocks.iter_mut().flatten() {
                    *c = Clock::new(c.control());
                }
                if let Err(e) = self.player.new_game(&self.game.start) {
                    let _ = writeln!(diag, "othbook gtp: {e}");
                }
                done
            }
            Command::Komi(_) => done,
            Command::SetGame(g) => {
                if g.eq_ignore_ascii_case("othello") || g.eq_ignore_ascii_case("reversi") {
                    done
                } else {
                    Reply::Err("unsupported game".into())
                }
            }
            Command::ListGames => Reply::Ok("Othello".into()),
            Command::Play(color, mv) => match self.play_as(color, mv) {
                Ok(()) => done,
                Err(e) => Reply::Err(e),
            },
            Command::Genmove(color) => self.genmove(color, true, diag),
            Command::RegGenmove(color) => self.genmove(color, false, diag),
            Command::Undo => self.undo(),
            Command::Showboard => Reply::Ok(format!("\n{}", self.game.position.diagram())),
            Command::FinalScore => self.final_score(),
            Command::TimeSettings {
                main,
                byo_yomi,
                stones,
            } => {
                // New settings start new clocks: what `time_left` said was about the old ones.
                self.left = [None, None];
                self.clocks = (!main.is_zero() || !byo_yomi.is_zero()).then(|| {
                    let tc = TimeControl {
                        setup: main,
                        period: byo_yomi,
                        moves: stones.max(1),
                    };
                    [Clock::new(tc), Clock::new(tc)]
                });
                done
            }
            Command::TimeLeft {
                color,
                time,
                stones,
            } => {
                self.left[side(color)] = Some((time, stones));
                done
            }
        }
    }

    /// `genmove` (`play` true) or `reg_genmove`: the player's move for `color`.
    fn genmove(&mut self, color: Color, play: bool, diag: &mut impl Write) -> Reply {
        let pos = self.game.position;
        if pos.board.is_game_over() {
            return Reply::Ok("pass".into());
        }
        if pos.side != color && !pos.board.must_pass() {
            return Reply::Err(format!("it is {}'s turn", pos.side));
        }
        // `reg_genmove` leaves the game as it was, implied passes included.
        let mut game = self.game.clone();
        if pos.side != color {
            let _ = game.play(Move::Pass);
        }
        if game.position.board.must_pass() {
            let _ = game.play(Move::Pass);
            if play {
                self.game = game;
            }
            return Reply::Ok("pass".into());
        }
        let budget = self.budget(color);
        let started = Instant::now();
        let choice = self.player.choose(&game, budget);
        if play {
            self.charge(color, started.elapsed());
        }
        match choice {
            Ok(choice) if !play => Reply::Ok(vertex(choice.mv)),
            Ok(choice) => match game.play(choice.mv) {
                Ok(()) => {
                    self.game = game;
                    Reply::Ok(vertex(choice.mv))
                }
                Err(e) => Reply::Err(format!("player chose an illegal move: {e}")),
            },
            Err(e) => {
                let _ = writeln!(diag, "othbook gtp: {e}");
                Reply::Err(format!("player failed: {e}"))
            }
        }
    }

    /// Takes back one real move, and the implied passes around it.
    fn undo(&mut self) -> Reply {
        let mut moves = self.game.moves.clone();
        while moves.last() == Some(&Move::Pass) {
            moves.pop();
        }
        if moves.pop().is_none() {
            return Reply::Err("cannot undo".into());
        }
        while moves.last() == Some(&Move::Pass) {
            moves.pop();
        }
        let mut g = GameState::new(self.game.start);
        for m in moves {
            let _ = g.play(m);
        }
        self.game = g;
        Reply::Ok(String::new())
    }

    fn final_score(&self) -> Reply {
        let pos = self.game.position;
        if !pos.board.is_game_over() {
            return Reply::Err("cannot score".into());
        }
        Reply::Ok(match pos.final_score_black() {
            d if d > 0 => format!("B+{d}"),
            d if d < 0 => format!("W+{}", -d),
            _ => "0".into(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::spec::PlayerSpec;

    /// `time_settings` after `time_left` starts a fresh clock: a new 5 s clock must not be
    /// spent as if the old 0.1 s were left.
    #[test]
    fn regression_time_settings_after_time_left_kept_the_old_clock() {
        let mut s = GtpServer::new(
            "simple".parse::<PlayerSpec>().unwrap().build().unwrap(),
            Duration::from_millis(50),
        );
        let script = "time_left b 0.1 0\ntime_settings 5 0 1\n";
        s.serve(script.as_bytes(), &mut Vec::new(), &mut Vec::new())
            .unwrap();
        assert_eq!(s.budget(Color::Black).hard, Some(Duration::from_secs(5)));
        s.serve(
            "time_left b 2 0\n".as_bytes(),
            &mut Vec::new(),
            &mut Vec::new(),
        )
        .unwrap();
        assert_eq!(s.budget(Color::Black).hard, Some(Duration::from_secs(2)));
        assert_eq!(s.budget(Color::White).hard, Some(Duration::from_secs(5)));
    }
}
