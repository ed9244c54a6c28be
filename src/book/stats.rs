//! Game statistics kept per position, move and line: results, unknown results, disc sum.

use crate::board::Color;

/// What happened in the games that reached a position (or played a move, or followed a line),
/// seen from one side: the side to move for positions and moves, black for lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Stats {
    /// Games won by the side whose view this is.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games lost by the side whose view this is.
    pub losses: u32,
    /// Games whose result is not recorded (counted in `games`, not in the results).
    pub unknown: u32,
    /// Sum of final disc differences (this side minus the other) over games with a result.
    pub disc_sum: i64,
}

/// Statistics of a position, from the side to move's point of view.
pub type PositionStats = Stats;
/// Statistics of the games that played a move, from the point of view of the side playing it.
pub type MoveStats = Stats;

/// The same figures with colours: what [`Stats::for_side`] returns for display.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ColorStats {
    /// Games won by black.
    pub black_wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games won by white.
    pub white_wins: u32,
    /// Games without a recorded result.
    pub unknown: u32,
    /// Sum of final disc differences, black minus white, over games with a result.
    pub disc_sum_black: i64,
}

/// One game's result from black's point of view, as the builder records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Final disc difference, black minus white (-64..=64).
    Known(i8),
    /// No result recorded.
    Unknown,
}

impl Outcome {
    /// The outcome of a game whose result is `disc_diff` (black minus white), if any.
    #[must_use]
    pub fn from_disc_diff(disc_diff: Option<i32>) -> Outcome {
        match disc_diff {
            Some(d) => Outcome::Known(d.clamp(-64, 64) as i8),
            None => Outcome::Unknown,
        }
    }

    /// The same result seen from the other side.
    #[must_use]
    pub const fn flipped(self) -> Outcome {
        match self {
            Outcome::Known(d) => Outcome::Known(-d),
            Outcome::Unknown => Outcome::Unknown,
        }
    }

    /// Statistics of this one game.
    #[must_use]
    pub const fn stats(self) -> Stats {
        let mut s = Stats {
            wins: 0,
            draws: 0,
            losses: 0,
            unknown: 0,
            disc_sum: 0,
        };
        match self {
            Outcome::Known(d) if d > 0 => s.wins = 1,
            Outcome::Known(d) if d < 0 => s.losses = 1,
            Outcome::Known(_) => s.draws = 1,
            Outcome::Unknown => s.unknown = 1,
        }
        if let Outcome::Known(d) = self {
            s.disc_sum = d as i64;
        }
        s
    }
}

impl Stats {
    /// Number of games.
    #[must_use]
    pub const fn games(&self) -> u64 {
        self.wins as u64 + self.draws as u64 + self.losses as u64 + self.unknown as u64
    }

    /// Games with a recorded result.
    #[must_use]
    pub const fn known(&self) -> u64 {
        self.wins as u64 + self.draws as u64 + self.losses as u64
    }

    /// Average final disc difference for this side, over games with a result.
    #[must_use]
    pub fn average_diff(&self) -> Option<f64> {
        let n = self.known();
        (n > 0).then(|| self.disc_sum as f64 / n as f64)
    }

    /// Share of points for this side (win 1, draw ½) over games with a result.
    #[must_use]
    pub fn score(&self) -> Option<f64> {
        let n = self.known();
        (n > 0).then(|| (f64::from(self.wins) + f64::from(self.draws) / 2.0) / n as f64)
    }

    /// The same games seen from the other side.
    #[must_use]
    pub const fn flipped(&self) -> Stats {
        Stats {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
            unknown: self.unknown,
            disc_sum: -self.disc_sum,
        }
    }

    /// Adds `other`; `None` if a count would overflow.
    #[must_use]
    pub fn checked_add(&self, other: &Stats) -> Option<Stats> {
        Some(Stats {
            wins: self.wins.checked_add(other.wins)?,
            draws: self.draws.checked_add(other.draws)?,
            losses: self.losses.checked_add(other.losses)?,
            unknown: self.unknown.checked_add(other.unknown)?,
            disc_sum: self.disc_sum.checked_add(other.disc_sum)?,
        })
    }

    /// `self - other`, `None` if `other` holds more of anything (the statistics of a part
    /// of these games never do).
    #[must_use]
    pub fn checked_sub(&self, other: &Stats) -> Option<Stats> {
        Some(Stats {
            wins: self.wins.checked_sub(other.wins)?,
            draws: self.draws.checked_sub(other.draws)?,
            losses: self.losses.checked_sub(other.losses)?,
            unknown: self.unknown.checked_sub(other.unknown)?,
            disc_sum: self.disc_sum.checked_sub(other.disc_sum)?,
        })
    }

    /// Adds `other` where the sum is known to fit: statistics of fewer than 2^32 games, as
    /// a build or a game table counts them (overflow is a bug: it panics in debug builds).
    #[must_use]
    pub const fn plus(&self, other: &Stats) -> Stats {
        Stats {
            wins: self.wins + other.wins,
            draws: self.draws + other.draws,
            losses: self.losses + other.losses,
            unknown: self.unknown + other.unknown,
            disc_sum: self.disc_sum + other.disc_sum,
        }
    }

    /// Colour figures, given the colour whose view these statistics are from.
    #[must_use]
    pub const fn for_side(&self, side: Color) -> ColorStats {
        let black = match side {
            Color::Black => *self,
            Color::White => self.flipped(),
        };
        ColorStats {
            black_wins: black.wins,
            draws: black.draws,
            white_wins: black.losses,
            unknown: black.unknown,
            disc_sum_black: black.disc_sum,
        }
    }
}

impl ColorStats {
    /// Number of games.
    #[must_use]
    pub const fn games(&self) -> u64 {
        self.black_wins as u64 + self.draws as u64 + self.white_wins as u64 + self.unknown as u64
    }

    /// Percentages of black wins, draws and white wins over games with a result.
    #[must_use]
    pub fn percentages(&self) -> Option<(f64, f64, f64)> {
        let n = (self.games() - u64::from(self.unknown)) as f64;
        (n > 0.0).then(|| {
            (
                100.0 * f64::from(self.black_wins) / n,
                100.0 * f64::from(self.draws) / n,
                100.0 * f64::from(self.white_wins) / n,
            )
        })
    }

    /// Average disc difference, black minus white, over games with a result.
    #[must_use]
    pub fn average_diff(&self) -> Option<f64> {
        let n = self.games() - u64::from(self.unknown);
        (n > 0).then(|| self.disc_sum_black as f64 / n as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_and_views() {
        let mut s = Stats::default();
        for o in [
            Outcome::Known(10),
            Outcome::Known(-4),
            Outcome::Known(0),
            Outcome::Unknown,
        ] {
            s = s.checked_add(&o.stats()).unwrap();
        }
        assert_eq!((s.wins, s.draws, s.losses, s.unknown), (1, 1, 1, 1));
        assert_eq!(s.games(), 4);
        assert_eq!(s.average_diff(), Some(2.0));
        assert_eq!(s.flipped().flipped(), s);
        let white = s.for_side(Color::White);
        assert_eq!((white.black_wins, white.white_wins), (1, 1));
        assert_eq!(white.disc_sum_black, -6);
        assert_eq!(Outcome::from_disc_diff(Some(99)), Outcome::Known(64));
        assert!(Stats {
            wins: u32::MAX,
            ..Stats::default()
        }
        .checked_add(&Outcome::Known(1).stats())
        .is_none());
    }
}
