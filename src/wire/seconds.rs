//! Times in seconds as people and controllers write them, checked once on the way in.
//!
//! Every float that becomes a [`Duration`] goes through [`Seconds`]: `Duration::from_secs_f64`
//! panics on NaN, infinities, negatives and values past `u64::MAX` seconds, and sums of
//! durations overflow long before that, so the range is bounded here rather than at each use.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The longest time accepted anywhere: a week. Anything longer is a typo or a sentinel
/// (`1e20`, `inf`), and clocks add and multiply these values.
pub const MAX_SECONDS: f64 = 7.0 * 86_400.0;

/// A time in seconds that cannot be used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SecondsError {
    /// Not a number at all.
    #[error("{text} is not a number of seconds")]
    NotANumber {
        /// What was written (shortened when long).
        text: String,
    },
    /// NaN or an infinity.
    #[error("{text} is not a finite number of seconds")]
    NotFinite {
        /// What was written.
        text: String,
    },
    /// Outside the range accepted where it was given.
    #[error("{text} s is out of range: use {min} to {max} seconds")]
    OutOfRange {
        /// What was written (shortened when long).
        text: String,
        /// Least value accepted.
        min: f64,
        /// Greatest value accepted.
        max: f64,
    },
}

/// A finite, non-negative time of at most [`MAX_SECONDS`], with the text it was read from
/// (for messages that quote the user rather than a 300-digit expansion of `1e300`).
#[derive(Clone, Debug, PartialEq)]
pub struct Seconds {
    duration: Duration,
    value: f64,
    text: String,
}

/// `text` cut to a length that fits in a message.
fn compact(text: &str) -> String {
    const MAX: usize = 24;
    let text = text.trim();
    if text.chars().count() <= MAX {
        format!("{text:?}")
    } else {
        format!("{:?}...", text.chars().take(MAX).collect::<String>())
    }
}

impl Seconds {
    /// Reads `text` (`0.5`, `30`, `1e3`); an error for anything but `0..=MAX_SECONDS`.
    pub fn parse(text: &str) -> Result<Seconds, SecondsError> {
        let value: f64 = text.trim().parse().map_err(|_| SecondsError::NotANumber {
            text: compact(text),
        })?;
        Self::checked(value, compact(text))
    }

    /// `value` seconds, computed rather than typed (e.g. a sum of move times).
    pub fn from_f64(value: f64) -> Result<Seconds, SecondsError> {
        Self::checked(value, format!("{value:.6e}"))
    }

    fn checked(value: f64, text: String) -> Result<Seconds, SecondsError> {
        if !value.is_finite() {
            return Err(SecondsError::NotFinite { text });
        }
        if !(0.0..=MAX_SECONDS).contains(&value) {
            return Err(SecondsError::OutOfRange {
                text,
                min: 0.0,
                max: MAX_SECONDS,
            });
        }
        Ok(Seconds {
            // In range: cannot panic.
            duration: Duration::from_secs_f64(value),
            value,
            text,
        })
    }

    /// The same time if it lies in `min..=max` (a narrower range than the global one).
    pub fn within(self, min: f64, max: f64) -> Result<Seconds, SecondsError> {
        if (min..=max).contains(&self.value) {
            Ok(self)
        } else {
            Err(SecondsError::OutOfRange {
                text: self.text,
                min,
                max,
            })
        }
    }

    /// The time.
    #[must_use]
    pub fn duration(&self) -> Duration {
        self.duration
    }
}

impl FromStr for Seconds {
    type Err = SecondsError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Seconds::parse(s)
    }
}

impl fmt::Display for Seconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.value)
    }
}

/// `text` read as seconds in `min..=max`.
pub fn seconds_in(text: &str, min: f64, max: f64) -> Result<Duration, SecondsError> {
    Ok(Seconds::parse(text)?.within(min, max)?.duration())
}

/// `percent` % of `d`, without the float conversion of `mul_f64` (which panics on overflow).
#[must_use]
pub fn percent_of(d: Duration, percent: u32) -> Duration {
    d.checked_mul(percent)
        .map_or_else(|| d / 100 * percent, |x| x / 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_finite_negative_and_huge_times_are_refused() {
        for bad in ["inf", "-inf", "NaN", "1e20", "1.8e19", "-1", "1e300", "x"] {
            assert!(Seconds::parse(bad).is_err(), "{bad}");
        }
        assert!(Seconds::from_f64(f64::NAN).is_err());
        assert_eq!(
            Seconds::parse("0.5").unwrap().duration(),
            Duration::from_millis(500)
        );
        assert_eq!(Seconds::parse(" 0 ").unwrap().duration(), Duration::ZERO);
    }

    #[test]
    fn messages_quote_a_short_form_of_the_text() {
        let long = format!("1{}", "0".repeat(300));
        for text in ["1e300", long.as_str()] {
            let msg = Seconds::parse(text).unwrap_err().to_string();
            assert!(msg.len() < 80, "{msg}");
        }
        let msg = seconds_in("5000", 0.001, 3600.0).unwrap_err().to_string();
        assert_eq!(msg, "\"5000\" s is out of range: use 0.001 to 3600 seconds");
    }

    #[test]
    fn percent_of_never_overflows() {
        assert_eq!(
            percent_of(Duration::from_secs(10), 85),
            Duration::from_millis(8500)
        );
        assert!(percent_of(Duration::MAX, 90) < Duration::MAX);
    }
}
