//! GTP on the wire, shared by the server (`othbook gtp`) and the client (`gtp:` players):
//! commands, vertex and colour spelling, response framing and id handling.
//!
//! The list of commands is the [`Verb`] enum: `list_commands` and `known_command` read it, and
//! [`Command::parse`] must turn each verb into a command, so the server cannot answer a command
//! it does not list, nor list one it does not answer.

use crate::board::{Color, Move, Square};
use crate::wire::seconds::{Seconds, SecondsError};
use std::fmt;
use std::io::{self, Write};
use std::time::Duration;

macro_rules! verbs {
    ($($variant:ident = $name:literal,)*) => {
        /// A GTP command name this side speaks.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Verb {
            $(
                #[doc = concat!("`", $name, "`")]
                $variant,
            )*
        }

        impl Verb {
            /// Every verb, in `list_commands` order.
            pub const ALL: &'static [Verb] = &[$(Verb::$variant,)*];

            /// The name on the wire.
            #[must_use]
            pub fn name(self) -> &'static str {
                match self {
                    $(Verb::$variant => $name,)*
                }
            }

            /// The verb called `name` (case-sensitive, as GTP wants).
            #[must_use]
            pub fn from_name(name: &str) -> Option<Verb> {
                match name {
                    $($name => Some(Verb::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

verbs! {
    ProtocolVersion = "protocol_version",
    Name = "name",
    Version = "version",
    KnownCommand = "known_command",
    ListCommands = "list_commands",
    Quit = "quit",
    Boardsize = "boardsize",
    ClearBoard = "clear_board",
    Komi = "komi",
    Play = "play",
    Genmove = "genmove",
    RegGenmove = "reg_genmove",
    Undo = "undo",
    Showboard = "showboard",
    FinalScore = "final_score",
    TimeSettings = "time_settings",
    TimeLeft = "time_left",
    SetGame = "set_game",
    ListGames = "list_games",
}

/// One GTP command with its arguments, read and checked.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `protocol_version`
    ProtocolVersion,
    /// `name`
    Name,
    /// `version`
    Version,
    /// `known_command NAME`
    KnownCommand(String),
    /// `list_commands`
    ListCommands,
    /// `quit`
    Quit,
    /// `boardsize N`
    Boardsize(u32),
    /// `clear_board`
    ClearBoard,
    /// `komi X` (accepted, meaningless in Othello)
    Komi(f64),
    /// `play COLOUR VERTEX`
    Play(Color, Move),
    /// `genmove COLOUR`
    Genmove(Color),
    /// `reg_genmove COLOUR`: a move, not played
    RegGenmove(Color),
    /// `undo`
    Undo,
    /// `showboard`
    Showboard,
    /// `final_score`
    FinalScore,
    /// `time_settings MAIN BYO_YOMI STONES`; zero main and byo-yomi times mean no limit.
    TimeSettings {
        /// Main time.
        main: Duration,
        /// Byo-yomi period.
        byo_yomi: Duration,
        /// Stones per byo-yomi period.
        stones: u32,
    },
    /// `time_left COLOUR TIME STONES`
    TimeLeft {
        /// Whose clock.
        color: Color,
        /// Time left on it.
        time: Duration,
        /// Stones to play in that time (0: main time).
        stones: u32,
    },
    /// `set_game NAME`
    SetGame(String),
    /// `list_games`
    ListGames,
}

/// A command line that cannot be carried out as written.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CommandError {
    /// No such command.
    #[error("unknown command")]
    Unknown {
        /// The name given.
        name: String,
    },
    /// A known command with missing or malformed arguments.
    #[error("syntax error: {verb} {reason}")]
    Syntax {
        /// The command.
        verb: &'static str,
        /// What is wrong with its arguments.
        reason: String,
    },
    /// A time argument that is not a usable number of seconds.
    #[error("syntax error: {verb}: {source}")]
    Time {
        /// The command.
        verb: &'static str,
        /// Why the time cannot be used.
        source: SecondsError,
    },
}

/// `black` / `white` on the wire; `b`, `w` and any case are read too.
#[must_use]
pub fn color_word(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A colour as GTP spells it.
#[must_use]
pub fn parse_color(s: &str) -> Option<Color> {
    match s.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Color::Black),
        "w" | "white" => Some(Color::White),
        _ => None,
    }
}

/// A move as GTP spells it: `D3`, `pass`.
#[must_use]
pub fn vertex(mv: Move) -> String {
    match mv {
        Move::Play(sq) => sq.to_string().to_uppercase(),
        Move::Pass => "pass".into(),
    }
}

/// A vertex in any case, or `pass`.
#[must_use]
pub fn parse_vertex(s: &str) -> Option<Move> {
    if s.eq_ignore_ascii_case("pass") {
        return Some(Move::Pass);
    }
    s.parse::<Square>().ok().map(Move::Play)
}

impl Command {
    /// The command's verb.
    #[must_use]
    pub fn verb(&self) -> Verb {
        match self {
            Command::ProtocolVersion => Verb::ProtocolVersion,
            Command::Name => Verb::Name,
            Command::Version => Verb::Version,
            Command::KnownCommand(_) => Verb::KnownCommand,
            Command::ListCommands => Verb::ListCommands,
            Command::Quit => Verb::Quit,
            Command::Boardsize(_) => Verb::Boardsize,
            Command::ClearBoard => Verb::ClearBoard,
            Command::Komi(_) => Verb::Komi,
            Command::Play(..) => Verb::Play,
            Command::Genmove(_) => Verb::Genmove,
            Command::RegGenmove(_) => Verb::RegGenmove,
            Command::Undo => Verb::Undo,
            Command::Showboard => Verb::Showboard,
            Command::FinalScore => Verb::FinalScore,
            Command::TimeSettings { .. } => Verb::TimeSettings,
            Command::TimeLeft { .. } => Verb::TimeLeft,
            Command::SetGame(_) => Verb::SetGame,
            Command::ListGames => Verb::ListGames,
        }
    }

    /// The command `name` with arguments `args`.
    pub fn parse(name: &str, args: &[&str]) -> Result<Command, CommandError> {
        let verb = Verb::from_name(name).ok_or_else(|| CommandError::Unknown {
            name: name.to_string(),
        })?;
        let syntax = |reason: &str| CommandError::Syntax {
            verb: verb.name(),
            reason: reason.to_string(),
        };
        let color = |i: usize| {
            args.get(i)
                .and_then(|c| parse_color(c))
                .ok_or_else(|| syntax("needs a colour (black or white)"))
        };
        let time = |i: usize| {
            let text = args.get(i).ok_or_else(|| syntax("needs a time"))?;
            Seconds::parse(text)
                .map(|s| s.duration())
                .map_err(|source| CommandError::Time {
                    verb: verb.name(),
                    source,
                })
        };
        let count = |i: usize| {
            args.get(i)
                .and_then(|n| n.parse::<u32>().ok())
                .ok_or_else(|| syntax("needs a whole number"))
        };
        let word = |i: usize| {
            args.get(i)
                .map(|s| (*s).to_string())
                .ok_or_else(|| syntax("needs an argument"))
        };
        Ok(match verb {
            Verb::ProtocolVersion => Command::ProtocolVersion,
            Verb::Name => Command::Name,
            Verb::Version => Command::Version,
            Verb::KnownCommand => Command::KnownCommand(word(0)?),
            Verb::ListCommands => Command::ListCommands,
            Verb::Quit => Command::Quit,
            Verb::Boardsize => Command::Boardsize(count(0)?),
            Verb::ClearBoard => Command::ClearBoard,
            Verb::Komi => Command::Komi(
                args.first()
                    .and_then(|k| k.parse::<f64>().ok())
                    .ok_or_else(|| syntax("needs a number"))?,
            ),
            Verb::Play => Command::Play(
                color(0)?,
                args.get(1)
                    .and_then(|v| parse_vertex(v))
                    .ok_or_else(|| syntax("needs a vertex (e.g. D3) or pass"))?,
            ),
            Verb::Genmove => Command::Genmove(color(0)?),
            Verb::RegGenmove => Command::RegGenmove(color(0)?),
            Verb::Undo => Command::Undo,
            Verb::Showboard => Command::Showboard,
            Verb::FinalScore => Command::FinalScore,
            Verb::TimeSettings => Command::TimeSettings {
                main: time(0)?,
                byo_yomi: time(1)?,
                stones: count(2)?,
            },
            Verb::TimeLeft => Command::TimeLeft {
                color: color(0)?,
                time: time(1)?,
                stones: count(2)?,
            },
            Verb::SetGame => Command::SetGame(word(0)?),
            Verb::ListGames => Command::ListGames,
        })
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.verb().name())?;
        match self {
            Command::KnownCommand(s) | Command::SetGame(s) => write!(f, " {s}"),
            Command::Boardsize(n) => write!(f, " {n}"),
            Command::Komi(k) => write!(f, " {k}"),
            Command::Play(c, mv) => write!(f, " {} {}", color_word(*c), vertex(*mv)),
            Command::Genmove(c) | Command::RegGenmove(c) => write!(f, " {}", color_word(*c)),
            Command::TimeSettings {
                main,
                byo_yomi,
                stones,
            } => write!(
                f,
                " {} {} {stones}",
                main.as_secs_f64(),
                byo_yomi.as_secs_f64()
            ),
            Command::TimeLeft {
                color,
                time,
                stones,
            } => write!(
                f,
                " {} {} {stones}",
                color_word(*color),
                // Whole seconds: some engines read an integer here, as the standard says.
                time.as_secs()
            ),
            _ => Ok(()),
        }
    }
}

/// One command line as read: its id (if numbered), name and arguments. Comments (`#...`)
/// and control characters are dropped first, as the standard says; `None` for a line with
/// nothing left.
#[must_use]
pub fn split_line(line: &str) -> Option<(Option<u32>, String, Vec<String>)> {
    let line: String = line
        .split('#')
        .next()
        .unwrap_or("")
        .chars()
        .map(|c| if c == '\t' { ' ' } else { c })
        .filter(|c| !c.is_control())
        .collect();
    let mut words = line.split_whitespace();
    let first = words.next()?;
    let (id, name) = match first.parse::<u32>() {
        Ok(id) if first.bytes().all(|b| b.is_ascii_digit()) => (Some(id), words.next()?),
        _ => (None, first),
    };
    Some((id, name.to_string(), words.map(str::to_string).collect()))
}

/// Writes a response: `=ID text` or `?ID text`, then the blank line that ends it. An empty
/// text keeps its space (`= `), as GNU Go and most engines write it.
pub fn write_response(
    out: &mut impl Write,
    id: Option<u32>,
    ok: bool,
    text: &str,
) -> io::Result<()> {
    let mark = if ok { '=' } else { '?' };
    let id = id.map_or_else(String::new, |n| n.to_string());
    write!(out, "{mark}{id} {text}\n\n")
}

/// The first line of a response: whether it is a success, and its text after the id; `None`
/// when the line is not a GTP response (does not start with `=` or `?`).
#[must_use]
pub fn response_head(line: &str) -> Option<(bool, &str)> {
    let ok = match line.chars().next()? {
        '=' => true,
        '?' => false,
        _ => return None,
    };
    let rest = line[1..]
        .trim_start_matches(|c: char| c.is_ascii_digit())
        .trim();
    Some((ok, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_read_back_as_written() {
        let d3 = parse_vertex("d3").unwrap();
        for c in [
            Command::Play(Color::White, d3),
            Command::Play(Color::Black, Move::Pass),
            Command::Genmove(Color::Black),
            Command::Boardsize(8),
            Command::ClearBoard,
            Command::TimeLeft {
                color: Color::White,
                time: Duration::from_secs(5),
                stones: 0,
            },
        ] {
            let text = c.to_string();
            let (id, name, args) = split_line(&text).unwrap();
            assert_eq!(id, None);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            assert_eq!(Command::parse(&name, &args).unwrap(), c, "{text}");
        }
    }

    #[test]
    fn every_verb_has_its_own_name() {
        for v in Verb::ALL {
            assert_eq!(Verb::from_name(v.name()), Some(*v));
        }
    }

    #[test]
    fn ids_comments_and_framing() {
        assert_eq!(
            split_line("12 play\tb d3 # note"),
            Some((Some(12), "play".into(), vec!["b".into(), "d3".into()]))
        );
        assert_eq!(split_line("  # only a comment"), None);
        let mut out = Vec::new();
        write_response(&mut out, Some(3), false, "illegal move").unwrap();
        write_response(&mut out, None, true, "").unwrap();
        assert_eq!(out, b"?3 illegal move\n\n= \n\n");
        assert_eq!(response_head("=12 D3"), Some((true, "D3")));
        assert_eq!(response_head("? no"), Some((false, "no")));
        assert_eq!(response_head("hello"), None);
    }
}
