//! CSV (or TSV / semicolon-separated) with a header row: the moves column is found by its name
//! (`game_moves`, `moves`, ...), with optional winner, score, player, event and date columns.

use super::lex;
use super::raw::{text_field, year_of, Parsed, RawIssue, RawResult};
use super::record::Location;

/// Header names accepted for the moves column, in order of preference.
pub(crate) const MOVE_COLUMNS: [&str; 6] = [
    "game_moves",
    "moves",
    "transcript",
    "movelist",
    "move_list",
    "line",
];

/// Column layout read from the header.
#[derive(Clone, Debug, Default)]
pub(crate) struct Layout {
    delimiter: u8,
    moves: usize,
    winner: Option<usize>,
    score: Option<usize>,
    black: Option<usize>,
    white: Option<usize>,
    event: Option<usize>,
    date: Option<usize>,
}

/// Reads the header line; an error says why the file is not a usable CSV.
pub(crate) fn layout(header: &[u8]) -> Result<Layout, String> {
    let delimiter = [b',', b'\t', b';']
        .into_iter()
        .max_by_key(|d| header.iter().filter(|b| *b == d).count())
        .unwrap_or(b',');
    let names: Vec<String> = split(header, delimiter)
        .into_iter()
        .map(|f| String::from_utf8_lossy(f).trim().to_ascii_lowercase())
        .collect();
    let find = |wanted: &[&str]| {
        wanted
            .iter()
            .find_map(|w| names.iter().position(|n| n == w))
    };
    let moves = find(&MOVE_COLUMNS).ok_or_else(|| {
        format!(
            "no moves column in the header (expected one of: {})",
            MOVE_COLUMNS.join(", ")
        )
    })?;
    Ok(Layout {
        delimiter,
        moves,
        winner: find(&["winner"]),
        score: find(&["score", "result", "disc_diff", "black_minus_white"]),
        black: find(&["black", "black_player", "player_black"]),
        white: find(&["white", "white_player", "player_white"]),
        event: find(&["event", "tournament"]),
        date: find(&["date", "year"]),
    })
}

/// Splits a row at `delimiter`, honouring double quotes (`""` inside quotes is a quote, kept
/// doubled: fields here are never unescaped further than dropping the outer quotes).
fn split(line: &[u8], delimiter: u8) -> Vec<&[u8]> {
    let mut out = Vec::with_capacity(8);
    let mut start = 0;
    let mut quoted = false;
    for (i, &b) in line.iter().enumerate() {
        if b == b'"' {
            quoted = !quoted;
        } else if b == delimiter && !quoted {
            out.push(unquote(&line[start..i]));
            start = i + 1;
        }
    }
    out.push(unquote(&line[start..]));
    out
}

fn unquote(field: &[u8]) -> &[u8] {
    let f = field.trim_ascii();
    if f.len() >= 2 && f[0] == b'"' && f[f.len() - 1] == b'"' {
        &f[1..f.len() - 1]
    } else {
        f
    }
}

/// One data row; `None` when blank or a comment.
pub(crate) fn parse_row(layout: &Layout, line: &[u8], no: u64) -> Option<Parsed> {
    let trimmed = line.trim_ascii();
    if trimmed.is_empty() || super::lines::is_comment(trimmed) {
        return None;
    }
    let location = Location::Line(no);
    let fields = split(line, layout.delimiter);
    let get = |c: Option<usize>| c.and_then(|c| fields.get(c).copied());
    let Some(moves) = fields.get(layout.moves) else {
        return Some(Err(RawIssue::syntax(
            location,
            format!(
                "row has {} fields, the moves column is number {}",
                fields.len(),
                layout.moves + 1
            ),
        )));
    };
    let mut game = match super::moves::parse_text(moves, location) {
        Ok(g) => g,
        Err(mut e) => {
            e.detail = format!("moves column: {}", e.detail);
            return Some(Err(e));
        }
    };
    if let Some(score) = get(layout.score).filter(|s| !s.is_empty()) {
        match lex::line_result(score) {
            Ok((_, Some((diff, winner_only)))) => {
                game.result = Some(RawResult {
                    disc_diff: diff,
                    raw: String::from_utf8_lossy(score).into_owned(),
                    winner_only,
                });
            }
            Ok((_, None)) => {}
            Err(_) => {
                return Some(Err(RawIssue::syntax(
                    location,
                    format!("score column: cannot read {:?}", super::raw::snippet(score)),
                )))
            }
        }
    } else if let Some(w) = get(layout.winner).filter(|s| !s.is_empty()) {
        let sign = match w.to_ascii_lowercase().as_slice() {
            b"1" | b"black" | b"b" | b"x" => 1,
            b"-1" | b"2" | b"white" | b"w" | b"o" => -1,
            b"0" | b"draw" | b"d" | b"tie" => 0,
            _ => {
                return Some(Err(RawIssue::syntax(
                    location,
                    format!("winner column: cannot read {:?}", super::raw::snippet(w)),
                )))
            }
        };
        game.result = Some(RawResult {
            disc_diff: sign,
            raw: String::from_utf8_lossy(w).into_owned(),
            winner_only: true,
        });
    }
    game.black = get(layout.black).and_then(text_field);
    game.white = get(layout.white).and_then(text_field);
    game.event = get(layout.event).and_then(text_field);
    game.date = get(layout.date).and_then(text_field);
    game.year = game.date.as_deref().and_then(year_of);
    Some(Ok(game))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kaggle_style() {
        let l = layout(b"eOthello_game_id,winner,game_moves").unwrap();
        let g = parse_row(&l, b"1056798,1,f5d6c3", 2).unwrap().unwrap();
        assert_eq!(g.moves.len(), 3);
        let r = g.result.unwrap();
        assert!(r.winner_only);
        assert_eq!(r.disc_diff, 1);
    }

    #[test]
    fn quoted_and_semicolons() {
        let l = layout(b"\"Black\";\"White\";\"Moves\";\"Score\"").unwrap();
        let g = parse_row(&l, b"\"Ann\";\"Bob\";\"f5 d6 c3\";\"+4\"", 2)
            .unwrap()
            .unwrap();
        assert_eq!(g.black.as_deref(), Some("Ann"));
        assert_eq!(g.result.unwrap().disc_diff, 4);
    }

    #[test]
    fn missing_moves_column() {
        assert!(layout(b"a,b,c").is_err());
        let l = layout(b"id,moves").unwrap();
        assert!(parse_row(&l, b"17", 3).unwrap().is_err());
        assert!(parse_row(&l, b"", 3).is_none());
    }
}
