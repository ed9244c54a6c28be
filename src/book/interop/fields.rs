//! The ranges of foreign books' fields, checked in one place for every format (Edax binary
//! and text, Egaroucid): a level, a score in discs, a declared number of records.

/// Highest level: Edax's levels go from 0 to 60.
pub const MAX_LEVEL: u8 = 60;

/// Levels outside 0 to 60 met while reading, repaired to level 0 (depth unknown).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BadLevels {
    /// How many.
    pub count: u64,
    /// The one farthest from the range, as written.
    pub worst: i32,
}

impl BadLevels {
    /// A level as a record or header gives it: 0 to 60 as it is, anything else counted and
    /// read as 0, the depth of a leaf whose search is not known.
    pub fn level(&mut self, raw: i32) -> u8 {
        match u8::try_from(raw) {
            Ok(l) if l <= MAX_LEVEL => l,
            _ => {
                self.count += 1;
                if raw.abs_diff(30) > self.worst.abs_diff(30) || self.count == 1 {
                    self.worst = raw;
                }
                0
            }
        }
    }
}

/// A score or value in discs (−64 to 64), if `raw` is one.
#[must_use]
pub fn discs(raw: i32) -> Option<i8> {
    i8::try_from(raw).ok().filter(|s| s.unsigned_abs() <= 64)
}

/// A header's number of records: not negative, and no more than `room` bytes can hold at
/// `least` bytes each (so that damage never makes us reserve memory for it).
pub fn count(declared: i32, room: usize, least: usize) -> Result<usize, String> {
    let n = usize::try_from(declared)
        .map_err(|_| format!("damaged: the header claims {declared} positions"))?;
    if n > room / least {
        return Err(format!(
            "truncated or damaged: the header claims {declared} positions, more than the \
             {room} bytes after it can hold"
        ));
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        let mut bad = BadLevels::default();
        assert_eq!([0, 60, 61, 255, -1].map(|l| bad.level(l)), [0, 60, 0, 0, 0]);
        assert_eq!(
            bad,
            BadLevels {
                count: 3,
                worst: 255
            }
        );
        assert_eq!(
            [64, -64, 65, -127].map(discs),
            [Some(64), Some(-64), None, None]
        );
        assert_eq!(count(2, 84, 42), Ok(2));
        assert!(count(3, 84, 42).unwrap_err().contains("claims 3"));
        assert!(count(-1, 84, 42).unwrap_err().contains("claims -1"));
    }
}
