//! Edax's text book (`book export` lines, `<64 squares> <side>,level,leaf move,leaf score`)
//! read into the Edax model: links are made by probing, as Edax's `book import` relinks.

use super::edax::{self, EdaxBook, Link, NO_MOVE, PASS, SCORE_INF};
use super::fields::{self, BadLevels};

/// Whether `bytes` look like Edax's text book: 64 squares, a space and a side.
#[must_use]
pub fn is_edax_text(bytes: &[u8]) -> bool {
    bytes.len() > 66
        && bytes[..64].iter().all(|b| b"XOxo-.".contains(b))
        && bytes[64] == b' '
        && b"XOxo".contains(&bytes[65])
}

/// A move as Edax writes it (`F5`, `f5`, `PA`, `--`), as a move byte.
fn parse_move(s: &str) -> Option<u8> {
    let b = s.as_bytes();
    match s.to_ascii_lowercase().as_str() {
        "pa" | "ps" => Some(PASS),
        "--" => Some(NO_MOVE),
        _ if b.len() == 2 => {
            let col = b[0]
                .to_ascii_lowercase()
                .checked_sub(b'a')
                .filter(|c| *c < 8)?;
            let row = b[1].checked_sub(b'1').filter(|r| *r < 8)?;
            Some(row * 8 + col)
        }
        _ => None,
    }
}

/// One line: the board with the side to move as player, the level and the leaf.
fn parse_line(line: &str, bad_levels: &mut BadLevels) -> Result<edax::Position, String> {
    let bytes = line.as_bytes();
    if !is_edax_text(bytes) {
        return Err("not 64 squares (X, O, -), a space and the side to move".into());
    }
    let (mut x, mut o) = (0u64, 0u64);
    for (i, c) in bytes[..64].iter().enumerate() {
        match c.to_ascii_uppercase() {
            b'X' => x |= 1 << i,
            b'O' => o |= 1 << i,
            _ => {}
        }
    }
    let (player, opponent) = if bytes[65].eq_ignore_ascii_case(&b'X') {
        (x, o)
    } else {
        (o, x)
    };
    let fields: Vec<&str> = line[66..].split(',').map(str::trim).collect();
    let [_, level, mv, score] = fields[..] else {
        return Err("not `,level,move,score` after the board".into());
    };
    let level = level
        .parse::<i32>()
        .map(|l| bad_levels.level(l))
        .map_err(|_| format!("level {level:?} is not a number"))?;
    let mv = parse_move(mv).ok_or_else(|| format!("move {mv:?} is not a move"))?;
    let score = score
        .parse::<i32>()
        .ok()
        .and_then(|s| fields::discs(s).or((s == -i32::from(SCORE_INF)).then_some(s as i8)))
        .ok_or_else(|| format!("score {score:?} is not a disc difference"))?;
    Ok(edax::Position {
        player,
        opponent,
        // No value in the text form: the import negamaxes one, compared with nothing.
        value: -SCORE_INF,
        level,
        leaf: Link { score, mv },
        ..edax::Position::default()
    })
}

/// Parses Edax's text book; the error names the line.
pub fn parse(bytes: &[u8]) -> Result<EdaxBook, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| format!("not text: {e}"))?;
    let mut positions = Vec::new();
    let mut level = 0;
    let mut bad_levels = BadLevels::default();
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let p = parse_line(line, &mut bad_levels).map_err(|e| format!("line {}: {e}", i + 1))?;
        level = level.max(i32::from(p.level));
        positions.push(p);
    }
    super::egaroucid::link(&mut positions, false);
    let mut book = EdaxBook {
        positions,
        bad_levels,
        ..EdaxBook::default()
    };
    book.header.options.level = level;
    Ok(book)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_and_lines_parse() {
        assert_eq!(parse_move("F5"), Some(37));
        assert_eq!(parse_move("a1"), Some(0));
        assert_eq!(parse_move("PA"), Some(PASS));
        assert_eq!(parse_move("--"), Some(NO_MOVE));
        assert_eq!(parse_move("i9"), None);
        let start = format!(
            "{}OX{}XO{} O,3,F5,-1",
            "-".repeat(27),
            "-".repeat(6),
            "-".repeat(27)
        );
        let mut bad = BadLevels::default();
        let p = parse_line(&start, &mut bad).unwrap();
        // O to move: O's discs (d4, e5) are the player's.
        assert_eq!(p.player, 1 << 27 | 1 << 36);
        assert_eq!((p.level, p.leaf), (3, Link { score: -1, mv: 37 }));
        assert!(parse_line(&start.replace(",3,", ",x,"), &mut bad)
            .unwrap_err()
            .contains("level"));
        assert_eq!(bad.count, 0);
        let p = parse_line(&start.replace(",3,", ",61,"), &mut bad).unwrap();
        assert_eq!((p.level, bad.count, bad.worst), (0, 1, 61));
        assert!(parse_line(&start[..70], &mut bad)
            .unwrap_err()
            .contains("level,move,score"));
    }
}
