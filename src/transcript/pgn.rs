//! Othello PGN: tag pairs (`[Event]`, `[Date]`, `[Black]`, `[White]`, `[Result "B-W"]`,
//! optional `[FEN]` set-up), then moves numbered per pair or per ply, in either case.

use super::lex::{self, In};
use super::lines::{count_line_ends, Lines};
use super::raw::{text_field, year_of, Parsed, RawGame, RawIssue, RawMove, RawResult};
use super::record::Location;
use super::summary::SkipReason;
use crate::board::{Move, Position};
use nom::branch::alt;
use nom::bytes::complete::{escaped_transform, is_not, tag, take_till, take_while1};
use nom::character::complete::{char, digit1, multispace0, space0};
use nom::combinator::{map, opt, recognize, value};
use nom::multi::many1_count;
use nom::sequence::{delimited, pair, preceded, separated_pair, terminated};
use nom::IResult;

/// Splits a file into games: a game starts at a tag line that follows movetext (or the start).
pub(crate) fn blocks(bytes: &[u8]) -> Vec<(u64, &[u8])> {
    let mut out = Vec::new();
    let mut start: Option<(u64, usize)> = None;
    let mut in_moves = false;
    for (no, line) in Lines::new(bytes, 1) {
        // Lines are sub-slices of `bytes`: their address gives their offset.
        let here = line.as_ptr() as usize - bytes.as_ptr() as usize;
        let t = line.trim_ascii();
        // A comment line belongs to no game: it neither starts one nor ends a tag section.
        if super::lines::is_comment(t) {
            continue;
        }
        if t.starts_with(b"[") {
            if in_moves || start.is_none() {
                if let Some((n, s)) = start {
                    out.push((n, &bytes[s..here]));
                }
                start = Some((no, here));
                in_moves = false;
            }
        } else if !t.is_empty() {
            if start.is_none() {
                start = Some((no, here));
            }
            in_moves = true;
        }
    }
    if let Some((n, s)) = start {
        out.push((n, &bytes[s..]));
    }
    out
}

fn tag_pair(i: In) -> IResult<In, (In, Vec<u8>)> {
    delimited(
        pair(char('['), space0),
        separated_pair(
            take_while1(|b: u8| b.is_ascii_alphanumeric() || b == b'_'),
            space0,
            delimited(
                char('"'),
                map(
                    opt(escaped_transform(
                        is_not("\\\""),
                        '\\',
                        alt((value(&b"\\"[..], tag("\\")), value(&b"\""[..], tag("\"")))),
                    )),
                    Option::unwrap_or_default,
                ),
                char('"'),
            ),
        ),
        pair(space0, char(']')),
    )(i)
}

#[derive(Clone)]
enum Token {
    Skip,
    Move(Move),
    Result(Option<(i32, bool)>),
}

fn token(i: In) -> IResult<In, Token> {
    alt((
        value(Token::Skip, take_while1(|b: u8| b.is_ascii_whitespace())),
        value(
            Token::Skip,
            delimited(char('{'), take_till(|b| b == b'}'), char('}')),
        ),
        // Rest-of-line comments: PGN's `;` and `%` escape, and the `#` and `//` comment lines
        // every text format accepts.
        value(
            Token::Skip,
            preceded(
                alt((tag(";"), tag("%"), tag("#"), tag("//"))),
                take_till(|b| b == b'\n' || b == b'\r'),
            ),
        ),
        value(Token::Skip, preceded(char('$'), digit1)),
        // Chess-style results name the winner only.
        value(Token::Result(Some((1, true))), tag("1-0")),
        value(Token::Result(Some((-1, true))), tag("0-1")),
        value(Token::Result(Some((0, true))), tag("1/2-1/2")),
        map(
            terminated(
                separated_pair(lex::count, char('-'), lex::count),
                multispace0,
            ),
            |(b, w)| Token::Result(lex::diff_from_counts(b, w).map(|d| (d, false))),
        ),
        value(Token::Skip, recognize(pair(digit1, many1_count(char('.'))))),
        value(Token::Result(None), char('*')),
        map(lex::mv, Token::Move),
        value(Token::Move(Move::Pass), tag("--")),
    ))(i)
}

/// What a game's text says its result is: the result, and the text that says it.
type TextResult<'a> = (Option<(i32, bool)>, &'a [u8]);

/// One game block starting on line `first`.
pub(crate) fn parse_block(block: &[u8], first: u64) -> Parsed {
    let location = Location::Line(first);
    let line_at = |rest: &[u8]| first + count_line_ends(&block[..lex::offset(block, rest)]);
    let mut game = RawGame::new(location);
    let (movetext, result_tag) = read_tags(block, &line_at, &mut game)?;
    let text_result = read_moves(movetext, &line_at, &mut game)?;
    let parsed = match &result_tag {
        Some(tag) => tag_result(tag, location)?,
        None => text_result,
    };
    if let Some((Some((diff, winner_only)), raw)) = parsed {
        game.result = Some(RawResult {
            disc_diff: diff,
            raw: String::from_utf8_lossy(raw.trim_ascii()).into_owned(),
            winner_only,
        });
    }
    Ok(game)
}

/// Reads the tag pairs at the start of `block` into `game`: the text after them (the moves)
/// and the value of the Result tag, if any. `line_at` gives the line of a place in `block`.
fn read_tags<'a>(
    block: &'a [u8],
    line_at: &impl Fn(&[u8]) -> u64,
    game: &mut RawGame,
) -> Result<(&'a [u8], Option<Vec<u8>>), RawIssue> {
    let mut result_tag = None;
    let mut i = block;
    loop {
        let (mut rest, _) = multispace0::<_, nom::error::Error<In>>(i).unwrap_or((i, i));
        while super::lines::is_comment(rest) {
            let end = rest
                .iter()
                .position(|&b| b == b'\n' || b == b'\r')
                .unwrap_or(rest.len());
            rest = multispace0::<_, nom::error::Error<In>>(&rest[end..])
                .map_or(&rest[end..], |(r, _)| r);
        }
        if !rest.starts_with(b"[") {
            return Ok((rest, result_tag));
        }
        let Ok((rest, (name, value))) = tag_pair(rest) else {
            return Err(RawIssue::syntax(
                Location::Line(line_at(rest)),
                format!("bad tag pair {:?}", super::raw::snippet(rest)),
            ));
        };
        // PGN writes "?" (or "????.??.??" for dates) for unknown values.
        let text = || text_field(&value).filter(|t| !t.chars().all(|c| matches!(c, '?' | '.')));
        match name.to_ascii_lowercase().as_slice() {
            b"event" => game.event = text(),
            b"site" => game.place = text(),
            b"date" => {
                game.date = text();
                game.year = game.date.as_deref().and_then(year_of);
            }
            b"black" => game.black = text(),
            b"white" => game.white = text(),
            b"result" => result_tag = Some(value.clone()),
            b"fen" => {
                let fen = String::from_utf8_lossy(&value).into_owned();
                game.start = fen.parse::<Position>().map_err(|e| {
                    RawIssue::syntax(Location::Line(line_at(rest)), format!("FEN tag: {e}"))
                        .with_reason(SkipReason::BadBoard)
                })?;
            }
            _ => {}
        }
        i = rest;
    }
}

/// Reads the moves of the movetext `i` into `game`, and the result written after them.
fn read_moves<'a>(
    mut i: &'a [u8],
    line_at: &impl Fn(&[u8]) -> u64,
    game: &mut RawGame,
) -> Result<Option<TextResult<'a>>, RawIssue> {
    let mut text_result = None;
    game.moves.reserve(64);
    while !i.is_empty() {
        match token(i) {
            Ok((rest, Token::Skip)) => i = rest,
            // Comments may follow the result; moves and a second result may not.
            Ok((_, Token::Move(_) | Token::Result(_))) if text_result.is_some() => {
                return Err(RawIssue::syntax(
                    Location::Line(line_at(i)),
                    format!("text after the result: {:?}", super::raw::snippet(i)),
                ));
            }
            Ok((rest, Token::Move(m))) => {
                game.moves.push(RawMove::new(m));
                i = rest;
            }
            Ok((rest, Token::Result(r))) => {
                text_result = Some((r, i[..lex::offset(i, rest)].trim_ascii()));
                i = rest;
            }
            Err(_) => {
                return Err(RawIssue::syntax(
                    Location::Line(line_at(i)),
                    format!(
                        "expected a move, a move number or a result, found {:?}",
                        super::raw::snippet(i)
                    ),
                ))
            }
        }
    }
    Ok(text_result)
}

/// The result a Result tag's value gives (`None`: an empty tag, no result).
fn tag_result(tag: &[u8], location: Location) -> Result<Option<TextResult<'_>>, RawIssue> {
    match token(tag.trim_ascii()) {
        Ok(([], Token::Result(r))) => Ok(Some((r, tag))),
        _ if tag.trim_ascii().is_empty() => Ok(None),
        _ => Err(RawIssue::syntax(
            location,
            format!(
                "Result tag {:?} is not B-W, * or 1-0",
                String::from_utf8_lossy(tag)
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &[u8] = b"[Event \"A\"]\n[Black \"X Y\"]\n[Result \"28-36\"]\n1. F5 D6\n2. C4\n\n[Event \"B\"]\r\n[Result \"*\"]\r\n1. f5 2. d6 3. c3 *\r\n";

    #[test]
    fn splits_and_reads_games() {
        let b = blocks(TWO);
        assert_eq!(b.len(), 2);
        assert_eq!(b[0].0, 1);
        assert_eq!(b[1].0, 7);
        let g = parse_block(b[0].1, b[0].0).unwrap();
        assert_eq!(g.moves.len(), 3);
        assert_eq!(g.black.as_deref(), Some("X Y"));
        assert_eq!(g.result.unwrap().disc_diff, -8);
        let g = parse_block(b[1].1, b[1].0).unwrap();
        assert_eq!(g.moves.len(), 3);
        assert!(g.result.is_none());
    }

    fn games_of(text: &[u8]) -> Vec<Result<usize, String>> {
        blocks(text)
            .into_iter()
            .map(|(first, b)| {
                parse_block(b, first)
                    .map(|g| g.moves.len())
                    .map_err(|e| e.detail)
            })
            .collect()
    }

    #[test]
    fn regression_comments_around_games_dropped_a_game_or_made_an_empty_one() {
        // A comment line after a result, and a comment after it on the same line.
        let text = b"[Event \"a\"]\n1. f5 d6 *\n\n; c\n\n[Event \"b\"]\n1. f5 f6 * {end}\n";
        assert_eq!(games_of(text), vec![Ok(2), Ok(2)]);
        // Comment lines before the first game and between tags belong to no game.
        let text = b"; c\n# d\n% e\n// f\n[Event \"a\"]\n# g\n[Black \"x\"]\n1. f5 d6 *\n";
        assert_eq!(games_of(text), vec![Ok(2)]);
        // A move after the result is still an error.
        let got = games_of(b"[Event \"a\"]\n1. f5 d6 * f4\n");
        assert!(
            matches!(&got[..], [Err(e)] if e.contains("text after the result")),
            "{got:?}"
        );
    }

    #[test]
    fn errors_give_the_line() {
        let text = b"[Event \"A\"]\n1. F5 D6\n2. C4 Z9\n";
        let e = parse_block(text, 10).unwrap_err();
        assert_eq!(e.location, Location::Line(12));
        let e = parse_block(b"[Event \"A\n1. F5", 1).unwrap_err();
        assert_eq!(e.reason, SkipReason::Syntax);
        let e = parse_block(b"[FEN \"xx\"]\n1. F5", 1).unwrap_err();
        assert_eq!(e.reason, SkipReason::BadBoard);
    }
}
