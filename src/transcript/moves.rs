//! Plain move strings, one game per line (`f5d6c3...`, `F5 D6 C3`, `f5-d6`, passes as `pa`),
//! optionally followed by a result: `B-W` disc counts, a signed difference, or `*`.

use super::lex::{self, In};
use super::raw::{Parsed, RawGame, RawIssue, RawMove, RawResult};
use super::record::Location;
use crate::board::Move;
use nom::branch::alt;
use nom::bytes::complete::tag;
use nom::character::complete::one_of;
use nom::combinator::value;
use nom::IResult;

fn token(i: In) -> IResult<In, Option<Move>> {
    alt((
        nom::combinator::map(lex::mv, Some),
        value(Some(Move::Pass), tag("--")),
        value(None, one_of(" \t,;-+.")),
    ))(i)
}

/// A result found after the moves: the value and whether it names the winner only (`None`
/// for `*`), and its text.
pub(crate) type LineResult<'a> = (Option<(i32, bool)>, &'a [u8]);

/// Reads moves from `text` until a result or the end; returns the moves, the result (if
/// any, `Some(None)` for `*`) and the byte offset where reading stopped on an error.
pub(crate) fn read_moves(text: &[u8]) -> Result<(Vec<RawMove>, Option<LineResult<'_>>), usize> {
    let mut out = Vec::with_capacity(64);
    let mut i = text;
    loop {
        if i.is_empty() {
            return Ok((out, None));
        }
        let signed = matches!(i[0], b'+' | b'-') && i.get(1).is_some_and(u8::is_ascii_digit);
        // A result stands apart from the moves: in `f5d6c3d33` the last 3 is a typo, not +3.
        let at = lex::offset(text, i);
        let apart = at == 0 || matches!(text[at - 1], b' ' | b'\t' | b',' | b';');
        if apart && (i[0].is_ascii_digit() || i[0] == b'*' || signed) {
            if let Ok((_, r)) = lex::line_result(i) {
                return Ok((out, Some((r, i.trim_ascii()))));
            }
        }
        match token(i) {
            Ok((rest, Some(m))) => {
                out.push(RawMove::new(m));
                i = rest;
            }
            Ok((rest, None)) => i = rest,
            Err(_) => return Err(lex::offset(text, i)),
        }
    }
}

/// One line; `None` when blank or a comment.
pub(crate) fn parse_line(line: &[u8], no: u64) -> Option<Parsed> {
    let line = line.trim_ascii();
    if line.is_empty() || super::lines::is_comment(line) {
        return None;
    }
    Some(parse_text(line, Location::Line(no)))
}

/// A move string with an optional result, as one game.
pub(crate) fn parse_text(text: &[u8], location: Location) -> Parsed {
    match read_moves(text) {
        Ok((moves, result)) => {
            let mut game = RawGame::new(location);
            game.moves = moves;
            if let Some((Some((diff, winner_only)), raw)) = result {
                game.result = Some(RawResult {
                    disc_diff: diff,
                    raw: String::from_utf8_lossy(raw).into_owned(),
                    winner_only,
                });
            }
            Ok(game)
        }
        Err(at) => Err(RawIssue::syntax(
            location,
            lex::stopped(text, at, "expected a square a1-h8, a pass or a result"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{parse_moves, Square};

    fn moves_of(text: &str) -> Vec<Move> {
        parse_line(text.as_bytes(), 1)
            .unwrap()
            .unwrap()
            .moves
            .iter()
            .map(|m| m.mv)
            .collect()
    }

    #[test]
    fn regression_a_typo_after_the_moves_was_read_as_a_result() {
        let e = parse_line(b"f5d6c3d33", 4).unwrap().unwrap_err();
        assert!(e.detail.contains("column 9"), "{}", e.detail);
        assert!(parse_line(b"f5d6c3+4", 4).unwrap().is_err());
        let g = parse_line(b"f5d6c3d3 +4", 4).unwrap().unwrap();
        assert_eq!(
            g.result.map(|r| (r.disc_diff, r.winner_only)),
            Some((4, false))
        );
        let g = parse_line(b"f5d6c3, 1-0", 4).unwrap().unwrap();
        assert_eq!(
            g.result.map(|r| (r.disc_diff, r.winner_only)),
            Some((1, true))
        );
    }

    #[test]
    fn styles_agree_with_parse_moves() {
        for text in [
            "f5d6c3",
            "F5 D6 C3",
            "f5-d6-c3",
            "f5, d6, c3",
            "f5 pa d6 PASS c3 -- ps",
        ] {
            assert_eq!(moves_of(text), parse_moves(text).unwrap(), "{text}");
        }
    }

    #[test]
    fn results_after_moves() {
        let g = parse_line(b"f5d6c3 34-30", 1).unwrap().unwrap();
        assert_eq!(g.moves.len(), 3);
        assert_eq!(g.result.unwrap().disc_diff, 4);
        let g = parse_line(b"f5 d6 c3 -12", 1).unwrap().unwrap();
        assert_eq!(g.result.unwrap().disc_diff, -12);
        let g = parse_line(b"f5d6c3 *", 1).unwrap().unwrap();
        assert!(g.result.is_none());
        assert_eq!(g.moves[2].mv, Move::Play(Square::C3));
    }

    #[test]
    fn bad_square_is_located() {
        let e = parse_line(b"f5d6z3", 9).unwrap().unwrap_err();
        assert_eq!(e.location, Location::Line(9));
        assert!(e.detail.starts_with("column 5"), "{}", e.detail);
    }
}
