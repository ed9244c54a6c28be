//! Chess clocks for matches: setup time, then T seconds for every K moves (Canadian overtime).

use crate::play::Budget;
use crate::wire::seconds::{percent_of, Seconds};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A time control: `setup` seconds in all, then `period` seconds for every `moves` moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeControl {
    /// Main thinking time for the whole game.
    pub setup: Duration,
    /// Time for each block of `moves` moves once the main time is used up (0: sudden death).
    pub period: Duration,
    /// Moves per overtime block.
    pub moves: u32,
}

/// A time control string that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid time control {0:?}: expected \"SETUP PER_K K\" in seconds, e.g. \"60 10 5\"")]
pub struct TimeControlError(pub String);

impl FromStr for TimeControl {
    type Err = TimeControlError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || TimeControlError(s.to_string());
        let parts: Vec<&str> = s
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|p| !p.is_empty())
            .collect();
        let secs = |t: &str| -> Result<Duration, TimeControlError> {
            Ok(Seconds::parse(t)
                .and_then(|s| s.within(0.0, 86_400.0))
                .map_err(|_| err())?
                .duration())
        };
        let tc = match parts.as_slice() {
            [setup] => TimeControl {
                setup: secs(setup)?,
                period: Duration::ZERO,
                moves: 1,
            },
            [setup, per, k] => {
                let moves: u32 = k.parse().map_err(|_| err())?;
                if moves == 0 || moves > 60 {
                    return Err(err());
                }
                TimeControl {
                    setup: secs(setup)?,
                    period: secs(per)?,
                    moves,
                }
            }
            _ => return Err(err()),
        };
        if tc.setup.is_zero() && tc.period.is_zero() {
            return Err(err());
        }
        Ok(tc)
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {}",
            self.setup.as_secs_f64(),
            self.period.as_secs_f64(),
            self.moves
        )
    }
}

/// The time a player used was more than its clock had.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("lost on time: used {used:?} with {left:?} left")]
pub struct Overrun {
    /// Time the move took.
    pub used: Duration,
    /// Time that was left.
    pub left: Duration,
}

/// One player's clock.
#[derive(Clone, Debug)]
pub struct Clock {
    tc: TimeControl,
    main_left: Duration,
    in_overtime: bool,
    period_left: Duration,
    moves_left: u32,
}

impl Clock {
    /// A full clock.
    #[must_use]
    pub fn new(tc: TimeControl) -> Self {
        Clock {
            tc,
            main_left: tc.setup,
            in_overtime: false,
            period_left: tc.period,
            moves_left: tc.moves,
        }
    }

    /// Time available for the next move before the player loses.
    #[must_use]
    pub fn available(&self) -> Duration {
        if self.in_overtime {
            self.period_left
        } else {
            self.main_left + self.tc.period
        }
    }

    /// The budget for the next move: a share of the main time spread over the moves still
    /// to come (`empties` / 2 of them at most), or a share of the current overtime block.
    #[must_use]
    pub fn budget(&self, empties: u32) -> Budget {
        let hard = self.available();
        let target = if self.in_overtime {
            percent_of(self.period_left, 90) / self.moves_left.max(1)
        } else {
            let my_moves = (empties / 2).max(1) + 2;
            let from_main = self.main_left / my_moves;
            let from_period = percent_of(self.tc.period, 80) / self.tc.moves.max(1);
            (from_main + from_period).min(percent_of(hard, 80))
        };
        Budget {
            target: Some(target),
            hard: Some(hard),
        }
    }

    /// Charges `used` to the clock; an error when it was more than the clock had.
    pub fn spend(&mut self, used: Duration) -> Result<(), Overrun> {
        let left = self.available();
        if used > left {
            self.main_left = Duration::ZERO;
            self.period_left = Duration::ZERO;
            self.in_overtime = true;
            return Err(Overrun { used, left });
        }
        let mut used = used;
        if !self.in_overtime {
            if used <= self.main_left {
                self.main_left -= used;
                return Ok(());
            }
            // The rest of this move spills into the first overtime block.
            used -= self.main_left;
            self.main_left = Duration::ZERO;
            self.in_overtime = true;
            self.period_left = self.tc.period;
            self.moves_left = self.tc.moves;
        }
        self.period_left -= used;
        self.moves_left -= 1;
        if self.moves_left == 0 {
            self.period_left = self.tc.period;
            self.moves_left = self.tc.moves;
        }
        Ok(())
    }

    /// The time control the clock runs under.
    #[must_use]
    pub fn control(&self) -> TimeControl {
        self.tc
    }

    /// Main time left (zero once in overtime).
    #[must_use]
    pub fn main_left(&self) -> Duration {
        self.main_left
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: f64) -> Duration {
        Duration::from_secs_f64(x)
    }

    #[test]
    fn parses_and_rejects() {
        let tc: TimeControl = "60 10 5".parse().unwrap();
        assert_eq!(
            tc,
            TimeControl {
                setup: s(60.0),
                period: s(10.0),
                moves: 5
            }
        );
        assert_eq!("2".parse::<TimeControl>().unwrap().period, Duration::ZERO);
        for bad in ["", "a b c", "1 2", "1 2 0", "0 0 1", "-1 2 3"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn main_time_then_overtime_blocks() {
        let mut c = Clock::new("10 4 2".parse().unwrap());
        c.spend(s(9.0)).unwrap();
        // 1 s of main left; a 2 s move spills 1 s into the first block (4 s for 2 moves).
        c.spend(s(2.0)).unwrap();
        assert_eq!(c.available(), s(3.0));
        // Second move of the block: the block refills after it.
        c.spend(s(2.5)).unwrap();
        assert_eq!(c.available(), s(4.0));
        assert!(c.spend(s(4.5)).is_err());
    }

    #[test]
    fn sudden_death_overrun() {
        let mut c = Clock::new("1".parse().unwrap());
        c.spend(s(0.6)).unwrap();
        assert!(c.spend(s(0.5)).is_err());
        let b = Clock::new("1".parse().unwrap()).budget(60);
        assert!(b.target.unwrap() < b.hard.unwrap());
    }
}
