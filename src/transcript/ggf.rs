//! GGF (Generic Game Format, GGS): `(;GM[Othello]PB[..]PW[..]RE[..]BO[8 ...]B[d3//0.01]W[..];)`,
//! any text between games (such as the `1 ` prefix of GGS match files) ignored.

use super::lex::{self, In};
use super::lines::LineCounter;
use super::raw::{text_field, year_of, Parsed, RawGame, RawIssue, RawMove, RawResult};
use super::record::Location;
use super::summary::SkipReason;
use crate::board::{Color, Position};
use nom::bytes::complete::{take_till, take_while1};
use nom::character::complete::{char, multispace0};
use nom::sequence::{delimited, pair, preceded};
use nom::IResult;

fn property(i: In) -> IResult<In, (In, In)> {
    preceded(
        multispace0,
        pair(
            take_while1(|b: u8| b.is_ascii_alphabetic()),
            delimited(
                preceded(multispace0, char('[')),
                take_till(|b| b == b']'),
                char(']'),
            ),
        ),
    )(i)
}

/// Every game in the file, in order, with the line each starts on.
#[cfg(test)]
pub(crate) fn parse_file(bytes: &[u8]) -> Vec<Parsed> {
    games(bytes).collect()
}

/// The games of `bytes` one at a time, in order, so that a caller holds only the ones it
/// has not handed on yet (a run of `(;` openers is a game each).
pub(crate) fn games(bytes: &[u8]) -> impl Iterator<Item = Parsed> + '_ {
    let mut from = 0usize;
    let mut lines = LineCounter::new(bytes, 1);
    std::iter::from_fn(move || {
        let at = find(&bytes[from..], b"(;")? + from;
        let (game, end) = parse_game(bytes, at, &mut lines);
        from = end.max(at + 2);
        Some(game)
    })
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The game starting at `at` (`(;`); also returns where scanning continues. `lines` counts
/// the lines of all of `bytes`.
fn parse_game(bytes: &[u8], at: usize, lines: &mut LineCounter) -> (Parsed, usize) {
    let location = Location::Line(lines.line_at(at));
    let body = &bytes[at + 2..];
    let mut game = RawGame::new(location);
    let mut othello = false;
    let mut i = body;
    loop {
        let (rest, _) = multispace0::<_, nom::error::Error<In>>(i).unwrap_or((i, i));
        if rest.starts_with(b";)") {
            let end = lex::offset(bytes, rest) + 2;
            if !othello {
                let e = RawIssue::syntax(location, "GM tag is not Othello (or missing)")
                    .with_reason(SkipReason::NotOthello);
                return (Err(e), end);
            }
            return (Ok(game), end);
        }
        let Ok((next, (name, value))) = property(rest) else {
            let end = lex::offset(bytes, rest);
            let detail = if rest.is_empty() {
                "game not closed by ;)".to_string()
            } else {
                format!(
                    "expected a property like B[d3] or ;), found {:?}",
                    super::raw::snippet(rest)
                )
            };
            return (
                Err(RawIssue::syntax(
                    Location::Line(lines.line_of(rest)),
                    detail,
                )),
                end,
            );
        };
        let here = Location::Line(lines.line_of(rest));
        if let Err(e) = apply(&mut game, &mut othello, name, value, here) {
            // Skip the rest of this game.
            let end = find(next, b";)").map_or(bytes.len(), |p| lex::offset(bytes, next) + p + 2);
            return (Err(e), end);
        }
        i = next;
    }
}

fn apply(
    game: &mut RawGame,
    othello: &mut bool,
    name: In,
    value: In,
    here: Location,
) -> Result<(), RawIssue> {
    match name {
        b"GM" => *othello = value.trim_ascii().eq_ignore_ascii_case(b"othello"),
        b"PB" => game.black = text_field(value),
        b"PW" => game.white = text_field(value),
        b"PC" => game.place = text_field(value),
        b"EV" => game.event = text_field(value),
        b"DT" => {
            game.date = text_field(value);
            game.year = game.date.as_deref().and_then(year_of);
        }
        b"RE" => game.result = result(value, here)?,
        b"BO" => game.start = board(value, here)?,
        b"B" | b"W" if !*othello => {
            // Moves of another game (or before GM): not read; the game is refused at its end.
        }
        b"B" | b"W" => {
            let text = value
                .split(|&b| b == b'/')
                .next()
                .unwrap_or_default()
                .trim_ascii();
            let mv = match lex::mv(text) {
                Ok(([], mv)) => mv,
                _ => {
                    return Err(RawIssue {
                        ply: Some(game.moves.len() + 1),
                        mv: Some(String::from_utf8_lossy(text).into_owned()),
                        ..RawIssue::syntax(here, "not a square or a pass")
                    })
                }
            };
            let color = if name == b"B" {
                Color::Black
            } else {
                Color::White
            };
            game.moves.push(RawMove {
                mv,
                color: Some(color),
            });
        }
        _ => {}
    }
    Ok(())
}

/// `RE[+12.000]` black minus white, optionally with a `:r`/`:t`/`:s` suffix; `?` unknown.
fn result(value: In, here: Location) -> Result<Option<RawResult>, RawIssue> {
    let text = String::from_utf8_lossy(value.trim_ascii()).into_owned();
    if text.is_empty() || text == "?" {
        return Ok(None);
    }
    let number = text.split(':').next().unwrap_or_default();
    match number.parse::<f64>() {
        Ok(x) if x.is_finite() && (-64.0..=64.0).contains(&x) => Ok(Some(RawResult {
            disc_diff: x.round() as i32,
            raw: text,
            winner_only: false,
        })),
        _ => Err(RawIssue::syntax(
            here,
            format!("RE[{text}] is not a disc difference"),
        )),
    }
}

/// `BO[8 <64 squares, rows optionally space-separated> <side>]`.
fn board(value: In, here: Location) -> Result<Position, RawIssue> {
    let text = String::from_utf8_lossy(value);
    let bad = |m: String| RawIssue::syntax(here, m).with_reason(SkipReason::BadBoard);
    let rest = text.trim_start();
    let Some(rest) = rest.strip_prefix('8') else {
        return Err(bad(format!(
            "BO[{}]: only 8x8 boards are supported",
            super::raw::snippet(value)
        )));
    };
    rest.trim()
        .parse::<Position>()
        .map_err(|e| bad(format!("BO: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;

    #[test]
    fn reads_games_with_prefixes_and_passes() {
        let text = b"1 (;GM[Othello]PB[a]PW[b]RE[+2.000]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[f5//0.01]W[PA]B[d6/1.2/3];)\n\
1 (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[pass];)\n";
        let games = parse_file(text);
        assert_eq!(games.len(), 2);
        let g = games[0].as_ref().unwrap();
        assert_eq!(g.moves.len(), 3);
        assert_eq!(g.moves[1].mv, Move::Pass);
        assert_eq!(g.moves[1].color, Some(Color::White));
        assert_eq!(g.result.as_ref().unwrap().disc_diff, 2);
        assert_eq!(g.start, Position::START);
        let g = games[1].as_ref().unwrap();
        assert_eq!(g.location, Location::Line(2));
    }

    #[test]
    fn bad_games_are_skipped_alone() {
        let text = b"(;GM[Chess]B[e4];)\n(;GM[Othello]B[z9];)\n(;GM[Othello]BO[9 x]B[f5];)\n(;GM[Othello]B[f5]";
        let games = parse_file(text);
        let reasons: Vec<SkipReason> = games
            .iter()
            .map(|g| g.as_ref().unwrap_err().reason)
            .collect();
        assert_eq!(
            reasons,
            [
                SkipReason::NotOthello,
                SkipReason::Syntax,
                SkipReason::BadBoard,
                SkipReason::Syntax
            ]
        );
        assert_eq!(games[1].as_ref().unwrap_err().location, Location::Line(2));
    }
}
