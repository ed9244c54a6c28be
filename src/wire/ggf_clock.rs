//! The clock of a GGF game (`TI[15:00]`, `TI[5:00//2:00]`) and the time its moves took
//! (`B[F5/0.50/1.23]`), so that NBoard's `go` can budget from the time the side to move has left.
//!
//! GGS writes a clock as `MAIN/INCREMENT/EXTENSION`, each a time `[[H:]M:]S` or empty (zero):
//! the main time, the time added for each move played, and the extra time allowed once the main
//! time is gone. `TI` sets both players' clocks, `TB` and `TW` one each.

use crate::board::Color;
use crate::wire::seconds::{percent_of, Seconds, SecondsError};
use std::str::FromStr;
use std::time::Duration;

/// A GGS clock setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GgsClock {
    /// Main thinking time for the game.
    pub main: Duration,
    /// Added for each move played.
    pub increment: Duration,
    /// Allowed beyond the main time before the game is lost on time.
    pub extension: Duration,
}

/// No time at all, the clock of a side that `TI`, `TB` or `TW` does not set.
const NO_CLOCK: GgsClock = GgsClock {
    main: Duration::ZERO,
    increment: Duration::ZERO,
    extension: Duration::ZERO,
};

/// A clock property that cannot be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ClockError {
    /// More than three `/`-separated parts, or a part that is not `[[H:]M:]S`.
    #[error("clock {text:?}: expected MAIN/INCREMENT/EXTENSION, each [[H:]M:]S")]
    Syntax {
        /// The property's value.
        text: String,
    },
    /// A time out of range.
    #[error("clock {text:?}: {source}")]
    Time {
        /// The property's value.
        text: String,
        /// What is wrong with it.
        source: SecondsError,
    },
}

/// `[[H:]M:]S` (seconds may have decimals); GGS option letters after a comma are ignored.
fn clock_time(part: &str) -> Result<Option<f64>, ()> {
    let part = part.split(',').next().unwrap_or("").trim();
    if part.is_empty() {
        return Ok(None);
    }
    let mut total = 0.0;
    let fields: Vec<&str> = part.split(':').collect();
    if fields.len() > 3 {
        return Err(());
    }
    for f in &fields {
        let v: f64 = f.trim().parse().map_err(|_| ())?;
        total = total * 60.0 + v;
    }
    Ok(Some(total))
}

impl FromStr for GgsClock {
    type Err = ClockError;
    fn from_str(text: &str) -> Result<Self, ClockError> {
        let syntax = || ClockError::Syntax {
            text: text.to_string(),
        };
        let parts: Vec<&str> = text.split('/').collect();
        if parts.len() > 3 {
            return Err(syntax());
        }
        let mut times = [Duration::ZERO; 3];
        for (slot, part) in times.iter_mut().zip(&parts) {
            if let Some(secs) = clock_time(part).map_err(|()| syntax())? {
                *slot = Seconds::from_f64(secs)
                    .map_err(|source| ClockError::Time {
                        text: text.to_string(),
                        source,
                    })?
                    .duration();
            }
        }
        let [main, increment, extension] = times;
        Ok(GgsClock {
            main,
            increment,
            extension,
        })
    }
}

/// Both players' clocks in a game, and what they have used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameClock {
    clocks: [GgsClock; 2],
    used: [Duration; 2],
    moves: [u32; 2],
}

fn side(c: Color) -> usize {
    usize::from(c == Color::White)
}

impl GameClock {
    /// The clock of a GGF game text, `None` when it has no (readable) clock. A clock that
    /// cannot be read is as good as none: the engine then thinks its fixed time per move.
    #[must_use]
    pub fn from_ggf(text: &str) -> Option<GameClock> {
        let mut both = None;
        let mut each = [None, None];
        let mut clock = GameClock {
            clocks: [NO_CLOCK; 2],
            used: [Duration::ZERO; 2],
            moves: [0; 2],
        };
        for (name, value) in properties(text) {
            match name {
                "TI" => both = value.parse::<GgsClock>().ok(),
                "TB" => each[0] = value.parse::<GgsClock>().ok(),
                "TW" => each[1] = value.parse::<GgsClock>().ok(),
                "B" => clock.moved(Color::Black, move_time(value)),
                "W" => clock.moved(Color::White, move_time(value)),
                _ => {}
            }
        }
        for (slot, own) in clock.clocks.iter_mut().zip(each) {
            *slot = own.or(both)?;
        }
        Some(clock)
    }

    /// `color` played a move that took `took`.
    pub fn moved(&mut self, color: Color, took: Duration) {
        let i = side(color);
        self.used[i] = self.used[i].saturating_add(took);
        self.moves[i] += 1;
    }

    /// Time `color` has before losing on time.
    #[must_use]
    pub fn left(&self, color: Color) -> Duration {
        let i = side(color);
        let c = &self.clocks[i];
        c.main
            .saturating_add(c.increment.saturating_mul(self.moves[i]))
            .saturating_add(c.extension)
            .saturating_sub(self.used[i])
    }

    /// Thinking time for `color`'s next move with `empties` empty squares: the time left
    /// spread over its moves to come (about half the empties, plus a reserve), plus most of
    /// the increment, never more than half of what is left.
    #[must_use]
    pub fn budget(&self, color: Color, empties: u32) -> Duration {
        let left = self.left(color);
        let moves_to_go = (empties / 2).max(1) + 2;
        let increment = self.clocks[side(color)].increment;
        let target = (left / moves_to_go).saturating_add(percent_of(increment, 80));
        // A search needs some time; a millisecond is the least the engine takes.
        target.min(left / 2).max(Duration::from_millis(1))
    }
}

/// The time part of a GGF move (`F5/eval/time`), zero when absent or unreadable.
fn move_time(value: &str) -> Duration {
    value
        .split('/')
        .nth(2)
        .and_then(|t| Seconds::parse(t).ok())
        .map_or(Duration::ZERO, |s| s.duration())
}

/// The `NAME[value]` properties of GGF text, in order.
fn properties(text: &str) -> impl Iterator<Item = (&str, &str)> {
    let mut rest = text;
    std::iter::from_fn(move || {
        let open = rest.find('[')?;
        let close = open + rest[open..].find(']')?;
        let before = rest[..open].trim_end();
        let name = &before[before
            .trim_end_matches(|c: char| c.is_ascii_alphabetic())
            .len()..];
        let value = &rest[open + 1..close];
        rest = &rest[close + 1..];
        Some((name, value))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn ggs_clock_forms() {
        let c: GgsClock = "15:00".parse().unwrap();
        assert_eq!(
            (c.main, c.increment, c.extension),
            (secs(900), secs(0), secs(0))
        );
        let c: GgsClock = "5:00//2:00".parse().unwrap();
        assert_eq!(
            (c.main, c.increment, c.extension),
            (secs(300), secs(0), secs(120))
        );
        let c: GgsClock = "01:00:00/00:05/02:00".parse().unwrap();
        assert_eq!(
            (c.main, c.increment, c.extension),
            (secs(3600), secs(5), secs(120))
        );
        let c: GgsClock = "05:00,N//02:00".parse().unwrap();
        assert_eq!(c.main, secs(300));
        for bad in ["x", "1:2:3:4", "1/2/3/4", "inf", "9999999:00"] {
            assert!(bad.parse::<GgsClock>().is_err(), "{bad}");
        }
    }

    #[test]
    fn game_clock_counts_each_sides_moves() {
        let ggf = "(;GM[Othello]PB[a]PW[b]TI[5:00//1:00]TW[1:00]TY[8]BO[8 x *]\
                   B[F5//10.5]W[F6/1.00/20]B[D3/-2/30];)";
        let c = GameClock::from_ggf(ggf).unwrap();
        assert_eq!(
            c.left(Color::Black),
            secs(360) - Duration::from_secs_f64(40.5)
        );
        assert_eq!(c.left(Color::White), secs(40));
        let b = c.budget(Color::White, 56);
        assert!(b <= secs(20) && b > Duration::ZERO, "{b:?}");
        assert_eq!(GameClock::from_ggf("(;GM[Othello]B[F5];)"), None);
    }

    #[test]
    fn budget_never_exceeds_the_time_left() {
        let mut c = GameClock::from_ggf("TI[10]").unwrap();
        c.moved(Color::Black, secs(11));
        assert_eq!(c.left(Color::Black), Duration::ZERO);
        assert_eq!(c.budget(Color::Black, 30), Duration::from_millis(1));
        let fresh = GameClock::from_ggf("TI[1:00]").unwrap();
        assert!(fresh.budget(Color::Black, 60) <= secs(2));
    }
}
