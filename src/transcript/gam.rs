//! Logistello `.gam` lines: `+d3-c5+f6...: -04 10` (sign = colour, passes implied, score black
//! minus white then a trailing field) and unsigned variants with or without a score.

use super::lex::{self, In};
use super::raw::{Parsed, RawGame, RawIssue, RawMove, RawResult};
use super::record::Location;
use crate::board::Color;
use nom::character::complete::{char, one_of, space0};
use nom::combinator::{opt, rest};
use nom::multi::fold_many0;
use nom::sequence::{pair, preceded};
use nom::IResult;

fn signed_move(i: In) -> IResult<In, RawMove> {
    let (i, sign) = opt(one_of("+-"))(i)?;
    let (i, mv) = lex::mv(i)?;
    let color = sign.map(|s| if s == '+' { Color::Black } else { Color::White });
    Ok((i, RawMove { mv, color }))
}

fn moves(i: In) -> IResult<In, Vec<RawMove>> {
    fold_many0(
        preceded(space0, signed_move),
        || Vec::with_capacity(64),
        |mut v, m| {
            v.push(m);
            v
        },
    )(i)
}

/// The score part: optional `:`, a signed number, anything after it (kept in `raw`).
fn score(i: In) -> IResult<In, (i32, In)> {
    let (i, _) = space0(i)?;
    let (i, _) = opt(pair(char(':'), space0))(i)?;
    pair(lex::signed_int, rest)(i)
}

/// One line; `None` when blank or a comment.
pub(crate) fn parse_line(line: &[u8], no: u64) -> Option<Parsed> {
    let line = line.trim_ascii();
    if line.is_empty() || super::lines::is_comment(line) {
        return None;
    }
    let location = Location::Line(no);
    let Ok((after, moves)) = moves(line) else {
        return Some(Err(RawIssue::syntax(location, "cannot read the moves")));
    };
    let mut game = RawGame::new(location);
    game.moves = moves;
    let tail = after.trim_ascii();
    if tail.is_empty() {
        return Some(Ok(game));
    }
    match score(after) {
        Ok((_, (diff, _))) if (-64..=64).contains(&diff) => {
            let raw = tail.strip_prefix(b":").unwrap_or(tail).trim_ascii();
            game.result = Some(RawResult {
                disc_diff: diff,
                raw: String::from_utf8_lossy(raw).into_owned(),
                winner_only: false,
            });
            Some(Ok(game))
        }
        Ok(_) => Some(Err(RawIssue::syntax(
            location,
            lex::stopped(line, lex::offset(line, after), "score out of range -64..64"),
        ))),
        Err(_) => Some(Err(RawIssue::syntax(
            location,
            lex::stopped(
                line,
                lex::offset(line, after.trim_ascii_start()),
                "expected a move like +d3 or a score like \": -04\"",
            ),
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Move, Square};

    #[test]
    fn logistello_line() {
        let g = parse_line(b"+d3-c5+f6: -04 10", 7).unwrap().unwrap();
        assert_eq!(g.location, Location::Line(7));
        assert_eq!(g.moves.len(), 3);
        assert_eq!(g.moves[1].mv, Move::Play(Square::C5));
        assert_eq!(g.moves[1].color, Some(Color::White));
        let r = g.result.unwrap();
        assert_eq!((r.disc_diff, r.raw.as_str()), (-4, "-04 10"));
    }

    #[test]
    fn unsigned_variants() {
        let g = parse_line(b"d3c5f6", 1).unwrap().unwrap();
        assert_eq!(g.moves.len(), 3);
        assert!(g.moves.iter().all(|m| m.color.is_none()));
        assert!(g.result.is_none());
        let g = parse_line(b"d3 c5 f6 +12", 1).unwrap().unwrap();
        assert_eq!(g.result.unwrap().disc_diff, 12);
    }

    #[test]
    fn bad_lines_name_the_column() {
        let e = parse_line(b"+d3-c5+z9: -04", 3).unwrap().unwrap_err();
        assert!(e.detail.starts_with("column 7"), "{}", e.detail);
        assert!(parse_line(b"+d3: -99", 3).unwrap().is_err());
        assert!(parse_line(b"# comment", 3).is_none());
        assert!(parse_line(b"  ", 3).is_none());
    }
}
