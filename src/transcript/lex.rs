//! Small nom parsers shared by the text formats: squares, passes, scores.

use crate::board::{Move, Square};
use nom::branch::alt;
use nom::bytes::complete::{tag, tag_no_case};
use nom::character::complete::{digit1, one_of, space0};
use nom::combinator::{eof, map, map_opt, opt, recognize, value};
use nom::sequence::{pair, separated_pair, terminated};
use nom::IResult;

pub(crate) type In<'a> = &'a [u8];

/// A square, `f5` or `F5`.
pub(crate) fn square(i: In) -> IResult<In, Square> {
    match Square::parse_prefix(i) {
        Some(sq) => Ok((&i[2..], sq)),
        None => Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Char,
        ))),
    }
}

/// A pass: `pass`, `pa`, `ps` (any case).
pub(crate) fn pass(i: In) -> IResult<In, ()> {
    value(
        (),
        alt((tag_no_case("pass"), tag_no_case("pa"), tag_no_case("ps"))),
    )(i)
}

/// A square or a pass.
pub(crate) fn mv(i: In) -> IResult<In, Move> {
    alt((map(square, Move::Play), value(Move::Pass, pass)))(i)
}

/// A decimal integer of at most 6 digits with an optional sign.
pub(crate) fn signed_int(i: In) -> IResult<In, i32> {
    map_opt(recognize(pair(opt(one_of("+-")), digit1)), |s: In| {
        if s.len() > 7 {
            return None;
        }
        std::str::from_utf8(s).ok()?.parse().ok()
    })(i)
}

/// A small unsigned integer (disc counts).
pub(crate) fn count(i: In) -> IResult<In, i32> {
    map_opt(digit1, |s: In| {
        if s.len() > 3 {
            return None;
        }
        std::str::from_utf8(s).ok()?.parse().ok()
    })(i)
}

/// Black minus white from disc counts `B-W`, empties given to the winner.
pub(crate) fn diff_from_counts(black: i32, white: i32) -> Option<i32> {
    if black + white > 64 {
        return None;
    }
    let empties = 64 - black - white;
    Some(match black.cmp(&white) {
        std::cmp::Ordering::Greater => black - white + empties,
        std::cmp::Ordering::Less => black - white - empties,
        std::cmp::Ordering::Equal => 0,
    })
}

/// A result at the end of a line: `1-0`, `0-1` or `1/2-1/2` (the winner only), `B-W` disc
/// counts, a signed difference, or `*` (unknown). `Some((diff, winner_only))`, `None` for `*`;
/// a winner-only result has the difference's sign only (`1`, `-1`, `0`).
pub(crate) fn line_result(i: In) -> IResult<In, Option<(i32, bool)>> {
    terminated(
        alt((
            // Read as disc counts, 1-0 would be a board with one disc: no game ends so.
            value(Some((1, true)), tag("1-0")),
            value(Some((-1, true)), tag("0-1")),
            value(Some((0, true)), tag("1/2-1/2")),
            map_opt(separated_pair(count, tag("-"), count), |(b, w)| {
                diff_from_counts(b, w).map(|d| Some((d, false)))
            }),
            map_opt(signed_int, |d| {
                (-64..=64).contains(&d).then_some(Some((d, false)))
            }),
            value(None, tag("*")),
        )),
        pair(space0, eof),
    )(i)
}

/// Byte offset of `rest` inside `whole` (both from the same slice).
pub(crate) fn offset(whole: &[u8], rest: &[u8]) -> usize {
    whole.len() - rest.len()
}

/// An error message for a parse that stopped at `at` inside `line`.
pub(crate) fn stopped(line: &[u8], at: usize, expected: &str) -> String {
    let column = String::from_utf8_lossy(&line[..at.min(line.len())])
        .chars()
        .count()
        + 1;
    if at >= line.len() {
        format!("column {column}: {expected}, found the end of the line")
    } else {
        format!(
            "column {column}: {expected}, found {:?}",
            super::raw::snippet(&line[at..])
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results() {
        assert_eq!(line_result(b"28-36").unwrap().1, Some((-8, false)));
        assert_eq!(line_result(b"30-32 ").unwrap().1, Some((-4, false)));
        assert_eq!(line_result(b"-04").unwrap().1, Some((-4, false)));
        assert_eq!(line_result(b"+12").unwrap().1, Some((12, false)));
        assert_eq!(line_result(b"1-0").unwrap().1, Some((1, true)));
        assert_eq!(line_result(b"0-1").unwrap().1, Some((-1, true)));
        assert_eq!(line_result(b"1/2-1/2").unwrap().1, Some((0, true)));
        assert_eq!(line_result(b"*").unwrap().1, None);
        assert!(line_result(b"99-1").is_err());
        assert!(line_result(b"+99999999999").is_err());
        assert!(line_result(b"12 x").is_err());
    }

    #[test]
    fn moves_and_passes() {
        assert_eq!(mv(b"F5").unwrap().1, Move::Play(Square::F5));
        assert_eq!(mv(b"PASS").unwrap(), (&b""[..], Move::Pass));
        assert_eq!(mv(b"pa").unwrap().1, Move::Pass);
        assert!(mv(b"i9").is_err());
    }
}
