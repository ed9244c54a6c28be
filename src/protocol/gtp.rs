//! The Go Text Protocol (as used for Othello by GRhino, Quarry and match tools), server side.

use crate::board::{Color, Move, Position, Square};
use crate::play::clock::TimeControl;
use crate::play::{Budget, GameState, Player};
use std::io::{self, BufRead, Write};
use std::time::Duration;

/// Commands this server answers, in `list_commands` order.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "time_settings",
    "time_left",
    "set_game",
    "list_games",
];

/// A GTP session: the game, the player that answers `genmove`, and the clocks.
pub struct GtpServer {
    player: Box<dyn Player>,
    game: GameState,
    /// Per-move thinking time when no clock is set.
    move_time: Duration,
    settings: Option<TimeControl>,
    /// Remaining time and stones per colour, from `time_left`.
    left: [Option<(Duration, u32)>; 2],
}

enum Reply {
    Ok(String),
    Err(String),
    Quit,
}

fn parse_color(s: &str) -> Option<Color> {
    match s.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Color::Black),
        "w" | "white" => Some(Color::White),
        _ => None,
    }
}

fn vertex(mv: Move) -> String {
    match mv {
        Move::Play(sq) => sq.to_string().to_uppercase(),
        Move::Pass => "pass".into(),
    }
}

impl GtpServer {
    /// A session where `player` chooses moves, thinking `move_time` per move without a clock.
    #[must_use]
    pub fn new(player: Box<dyn Player>, move_time: Duration) -> Self {
        GtpServer {
            player,
            game: GameState::new(Position::START),
            move_time,
            settings: None,
            left: [None, None],
        }
    }

    /// Reads commands from `input` until `quit` or end of input, answering on `output`.
    /// Nothing but protocol is written to `output`; diagnostics go to `diag`.
    pub fn serve(
        &mut self,
        input: impl BufRead,
        output: &mut impl Write,
        diag: &mut impl Write,
    ) -> io::Result<()> {
        if let Err(e) = self.player.new_game(&self.game.start) {
            writeln!(diag, "othbook gtp: {e}")?;
        }
        for line in input.lines() {
            let line = line?;
            let line = line
                .split('#')
                .next()
                .unwrap_or("")
                .trim()
                .replace('\t', " ");
            if line.is_empty() {
                continue;
            }
            let mut words = line.split_whitespace();
            let first = words.next().unwrap_or("");
            let (id, cmd) = if first.chars().all(|c| c.is_ascii_digit()) {
                (first.to_string(), words.next().unwrap_or(""))
            } else {
                (String::new(), first)
            };
            let args: Vec<&str> = words.collect();
            let reply = self.handle(cmd, &args, diag);
            match reply {
                Reply::Ok(text) => write!(output, "={id} {text}\n\n")?,
                Reply::Err(text) => write!(output, "?{id} {text}\n\n")?,
                Reply::Quit => {
                    write!(output, "={id}\n\n")?;
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
        let idx = usize::from(color == Color::White);
        if let Some((left, stones)) = self.left[idx] {
            let target = if stones > 0 {
                left.mul_f64(0.85) / stones
            } else {
                left / ((empties / 2).max(1) + 2)
            };
            return Budget {
                target: Some(target.min(left.mul_f64(0.5))),
                hard: Some(left),
            };
        }
        if let Some(tc) = self.settings {
            let c = crate::play::clock::Clock::new(tc);
            return c.budget(empties);
        }
        Budget {
            target: Some(self.move_time),
            hard: None,
        }
    }

    fn handle(&mut self, cmd: &str, args: &[&str], diag: &mut impl Write) -> Reply {
        match cmd {
            "protocol_version" => Reply::Ok("2".into()),
            "name" => Reply::Ok("othbook".into()),
            "version" => Reply::Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => Reply::Ok(
                args.first()
                    .is_some_and(|c| COMMANDS.contains(c))
                    .to_string(),
            ),
            "list_commands" => Reply::Ok(COMMANDS.join("\n")),
            "quit" => Reply::Quit,
            "boardsize" => match args.first().and_then(|a| a.parse::<u32>().ok()) {
                Some(8) => Reply::Ok(String::new()),
                Some(_) => Reply::Err("unacceptable size".into()),
                None => Reply::Err("syntax error".into()),
            },
            "clear_board" => {
                self.game = GameState::new(Position::START);
                self.left = [None, None];
                if let Err(e) = self.player.new_game(&self.game.start) {
                    let _ = writeln!(diag, "othbook gtp: {e}");
                }
                Reply::Ok(String::new())
            }
            "komi" => match args.first().and_then(|a| a.parse::<f64>().ok()) {
                Some(_) => Reply::Ok(String::new()),
                None => Reply::Err("syntax error".into()),
            },
            "set_game" => match args.first() {
                Some(g)
                    if g.eq_ignore_ascii_case("othello") || g.eq_ignore_ascii_case("reversi") =>
                {
                    Reply::Ok(String::new())
                }
                Some(_) => Reply::Err("unsupported game".into()),
                None => Reply::Err("syntax error".into()),
            },
            "list_games" => Reply::Ok("Othello".into()),
            "play" => {
                let (Some(color), Some(v)) =
                    (args.first().and_then(|c| parse_color(c)), args.get(1))
                else {
                    return Reply::Err("syntax error".into());
                };
                let mv = if v.eq_ignore_ascii_case("pass") {
                    Move::Pass
                } else {
                    match v.parse::<Square>() {
                        Ok(sq) => Move::Play(sq),
                        Err(_) => return Reply::Err("syntax error".into()),
                    }
                };
                match self.play_as(color, mv) {
                    Ok(()) => Reply::Ok(String::new()),
                    Err(e) => Reply::Err(e),
                }
            }
            "genmove" | "reg_genmove" => {
                let Some(color) = args.first().and_then(|c| parse_color(c)) else {
                    return Reply::Err("syntax error".into());
                };
                let pos = self.game.position;
                if pos.board.is_game_over() {
                    return Reply::Ok("pass".into());
                }
                if pos.side != color && !pos.board.must_pass() {
                    return Reply::Err(format!("it is {}'s turn", pos.side));
                }
                if pos.side != color {
                    let _ = self.game.play(Move::Pass);
                }
                if self.game.position.board.must_pass() {
                    let _ = self.game.play(Move::Pass);
                    return Reply::Ok("pass".into());
                }
                let budget = self.budget(color);
                match self.player.choose(&self.game, budget) {
                    Ok(choice) => {
                        if cmd == "reg_genmove" {
                            return Reply::Ok(vertex(choice.mv));
                        }
                        match self.game.play(choice.mv) {
                            Ok(()) => Reply::Ok(vertex(choice.mv)),
                            Err(e) => Reply::Err(format!("player chose an illegal move: {e}")),
                        }
                    }
                    Err(e) => {
                        let _ = writeln!(diag, "othbook gtp: {e}");
                        Reply::Err(format!("player failed: {e}"))
                    }
                }
            }
            "undo" => {
                let mut moves = self.game.moves.clone();
                // Undo one real move, and the implied passes around it.
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
            "showboard" => Reply::Ok(format!("\n{}", self.game.position.diagram())),
            "final_score" => {
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
            "time_settings" => {
                let nums: Vec<f64> = args.iter().filter_map(|a| a.parse().ok()).collect();
                match nums.as_slice() {
                    [main, byo, stones] if *main >= 0.0 && *byo >= 0.0 && *stones >= 0.0 => {
                        self.settings = if *main == 0.0 && *byo == 0.0 {
                            None
                        } else {
                            Some(TimeControl {
                                setup: Duration::from_secs_f64(*main),
                                period: Duration::from_secs_f64(*byo),
                                moves: (*stones as u32).max(1),
                            })
                        };
                        Reply::Ok(String::new())
                    }
                    _ => Reply::Err("syntax error".into()),
                }
            }
            "time_left" => {
                let color = args.first().and_then(|c| parse_color(c));
                let t = args
                    .get(1)
                    .and_then(|t| t.parse::<f64>().ok())
                    .filter(|t| *t >= 0.0);
                let stones = args.get(2).and_then(|s| s.parse::<u32>().ok());
                match (color, t, stones) {
                    (Some(c), Some(t), Some(s)) => {
                        self.left[usize::from(c == Color::White)] =
                            Some((Duration::from_secs_f64(t), s));
                        Reply::Ok(String::new())
                    }
                    _ => Reply::Err("syntax error".into()),
                }
            }
            _ => Reply::Err("unknown command".into()),
        }
    }
}
